using System.Net.Sockets;
using Grpc.Net.Client;

namespace Harness.Contracts;

/// <summary>The gRPC channel a load runner needs, shared by the typed client and any other gRPC caller of the runner.</summary>
public static class LoadChannel
{
    /// <summary>The scheme of a Unix domain socket address, <c>unix:///path/to.sock</c>, as gRPC's naming spells it.</summary>
    public const string UnixScheme = "unix";

    /// <param name="address">
    /// A plain-text HTTP/2 address, e.g. <c>http://127.0.0.1:5082</c>, or a Unix domain socket, <c>unix:///tmp/grpc.sock</c>.
    /// </param>
    /// <remarks>Replies are taken whatever their size: a load run may carry large replies of other people's services.</remarks>
    public static GrpcChannel For(Uri address) => For(address, maxReceiveMessageSize: null);

    /// <param name="address">As <see cref="For(Uri)"/>.</param>
    /// <param name="maxReceiveMessageSize">
    /// The largest reply message taken, in bytes (a larger one fails its call with RESOURCE_EXHAUSTED); null for no bound.
    /// </param>
    public static GrpcChannel For(Uri address, int? maxReceiveMessageSize)
    {
        ArgumentNullException.ThrowIfNull(address);
        var handler = new SocketsHttpHandler
        {
            // Kestrel allows 100 streams per HTTP/2 connection by default (our services raise it with
            // Http2__MaxStreamsPerConnection, other servers may not); a load run has hundreds of calls in
            // flight, and without this they would queue in the client rather than reach the service.
            EnableMultipleHttp2Connections = true,
            ConnectTimeout = TimeSpan.FromSeconds(10),
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            KeepAlivePingDelay = TimeSpan.FromSeconds(60),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
        };
        if (address.Scheme == UnixScheme)
        {
            // Grpc.Net.Client's documented way to a Unix domain socket: every connection the handler opens goes to the
            // socket, and the HTTP address only names the :authority.
            var endpoint = new UnixDomainSocketEndPoint(Uri.UnescapeDataString(address.AbsolutePath));
            handler.ConnectCallback = (_, cancellationToken) => ConnectAsync(endpoint, cancellationToken);
            address = new Uri("http://localhost");
        }

        return GrpcChannel.ForAddress(address, new GrpcChannelOptions
        {
            HttpHandler = handler,
            DisposeHttpClient = true,
            MaxReceiveMessageSize = maxReceiveMessageSize,
        });
    }

    private static async ValueTask<Stream> ConnectAsync(UnixDomainSocketEndPoint endpoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(endpoint, cancellationToken).ConfigureAwait(false);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
