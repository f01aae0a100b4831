namespace Harness.Agreements;

/// <summary>A request argument outside its limit. Services turn it into INVALID_ARGUMENT or a client SOAP fault.</summary>
public sealed class WorkloadArgumentException(string message) : ArgumentException(message);
