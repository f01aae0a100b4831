namespace Harness.LoadTests.Clients;

/// <summary>Sends one encoded request of a <c>--call</c> to a target: gRPC's message bytes, or a SOAP envelope.</summary>
public interface ICallClient : IDisposable
{
    /// <summary>Sends <paramref name="body"/> and reads the whole reply.</summary>
    /// <returns>The reply's bytes, as received (the protobuf message, the SOAP envelope), and the server's time if it said it.</returns>
    /// <exception cref="CallFailedException">The target answered with a failure (a SOAP fault, an HTTP status).</exception>
    /// <remarks>Transport failures surface as their own exceptions (RpcException, HttpRequestException), which FailureStatus names.</remarks>
    Task<CallReply> SendAsync(byte[] body, CancellationToken cancellationToken);
}

/// <summary>A reply of a <c>--call</c>: its bytes, and the server's own execution time when the target reports one.</summary>
/// <param name="Body">The protobuf message, the SOAP envelope.</param>
/// <param name="ServerTime">
/// From the gRPC trailer <c>harness-server-time-ms</c> (Harness.Metrics' ServerTimeTrailer), which our gRPC service and
/// any service that adopted Harness.Scheduling.AspNetCore send; null for SOAP and for a target that sends none.
/// </param>
/// <param name="Stream">A streaming call's messages; <paramref name="Body"/> is then its first reply message (empty when none came). Null for a unary call.</param>
public sealed record CallReply(byte[] Body, TimeSpan? ServerTime = null, CallStream? Stream = null);

/// <summary>A reply that reported a failure, counted under <see cref="Status"/> (<c>soap-fault-Client</c>, <c>http-503</c>).</summary>
public sealed class CallFailedException(string status, string message) : Exception(message)
{
    public string Status { get; } = status;
}
