namespace Harness.LoadTests.Clients;

/// <summary>
/// A call that cannot be set up from what the user gave (an unknown method or operation, data that does not fit the
/// message, a description that cannot be read): one line naming what is wrong and what is valid, said before any load.
/// </summary>
public sealed class CallSetupException(string message, Exception? inner = null) : Exception(message, inner);
