namespace Harness.Rpc.Grpc;

/// <summary>Options for a <see cref="GrpcUnaryClient"/>.</summary>
/// <remarks>Named and defaulted like the matching members of <c>Grpc.Net.Client.GrpcChannelOptions</c>.</remarks>
public sealed class GrpcClientOptions
{
    /// <summary>
    /// The largest response message, in bytes, the client accepts; a larger one fails the call with
    /// <see cref="GrpcStatusCode.ResourceExhausted"/>. <see langword="null"/> for no limit.
    /// </summary>
    public int? MaxReceiveMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>
    /// The handler that sends requests. When <see langword="null"/> the client creates a
    /// <see cref="SocketsHttpHandler"/> and disposes it with itself; a handler given here stays the caller's
    /// to dispose. It must speak HTTP/2 to the server: cleartext HTTP/2 with prior knowledge for <c>http://</c>.
    /// </summary>
    public HttpMessageHandler? HttpHandler { get; set; }
}
