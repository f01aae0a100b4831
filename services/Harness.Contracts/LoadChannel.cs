using Grpc.Net.Client;

namespace Harness.Contracts;

/// <summary>The gRPC channel a load runner needs, shared by the typed client and any other gRPC caller of the runner.</summary>
public static class LoadChannel
{
    /// <param name="address">A plain-text HTTP/2 address, e.g. <c>http://127.0.0.1:5082</c>.</param>
    public static GrpcChannel For(Uri address) => GrpcChannel.ForAddress(address, new GrpcChannelOptions
    {
        HttpHandler = new SocketsHttpHandler
        {
            // Kestrel allows 100 streams per HTTP/2 connection by default (our services raise it with
            // Http2__MaxStreamsPerConnection, other servers may not); a load run has hundreds of calls in
            // flight, and without this they would queue in the client rather than reach the service.
            EnableMultipleHttp2Connections = true,
            ConnectTimeout = TimeSpan.FromSeconds(10),
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            KeepAlivePingDelay = TimeSpan.FromSeconds(60),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
        },
        DisposeHttpClient = true,
        // A load run may carry large replies of other people's services; the client's 4 MB default would fail them.
        MaxReceiveMessageSize = null,
    });
}
