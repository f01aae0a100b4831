namespace Harness.LoadTests.Calls;

/// <summary>Sends one encoded request of a <c>--call</c> to a target: gRPC's message bytes, or a SOAP envelope.</summary>
internal interface ICallClient : IDisposable
{
    /// <summary>Sends <paramref name="body"/> and reads the whole reply.</summary>
    /// <returns>The reply's bytes, as received (the protobuf message, the SOAP envelope).</returns>
    /// <exception cref="CallFailedException">The target answered with a failure (a SOAP fault, an HTTP status).</exception>
    /// <remarks>Transport failures surface as their own exceptions (RpcException, HttpRequestException), which FailureStatus names.</remarks>
    Task<byte[]> SendAsync(byte[] body, CancellationToken cancellationToken);
}

/// <summary>A reply that reported a failure, counted under <see cref="Status"/> (<c>soap-fault-Client</c>, <c>http-503</c>).</summary>
internal sealed class CallFailedException(string status, string message) : Exception(message)
{
    public string Status { get; } = status;
}
