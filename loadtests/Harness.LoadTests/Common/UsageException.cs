namespace Harness.LoadTests.Common;

/// <summary>Bad command-line input: printed as is, exit code 2.</summary>
internal class UsageException(string message) : Exception(message);
