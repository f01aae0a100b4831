using System.Net.Security;
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
    /// <remarks>Replies are taken up to <see cref="DefaultMaxReceiveMessageSize"/>, Grpc.Net.Client's own default.</remarks>
    public static GrpcChannel For(Uri address) => For(address, maxReceiveMessageSize: null);

    /// <summary>Grpc.Net.Client's default largest reply message, 4 MiB.</summary>
    public const int DefaultMaxReceiveMessageSize = 4 * 1024 * 1024;

    /// <param name="address">As <see cref="For(Uri)"/>.</param>
    /// <param name="maxReceiveMessageSize">
    /// The largest reply message taken, in bytes (a larger one fails its call with RESOURCE_EXHAUSTED); null for
    /// <see cref="DefaultMaxReceiveMessageSize"/>. Never unbounded: Grpc.Net.Client (2.85) reads a reply into a buffer
    /// rented for the length its prefix announces, and when that rent throws (a prefix of 2 GiB − 1 cannot be an array)
    /// it returns its first buffer to ArrayPool.Shared twice. Two later renters then share one array, and every HTTP/2
    /// connection of the process may send or read corrupted frames (docs/hostile-servers.md). The bound fails such a
    /// reply before the rent.
    /// </param>
    public static GrpcChannel For(Uri address, int? maxReceiveMessageSize) => For(address, maxReceiveMessageSize, tls: null, TimeSpan.FromSeconds(10));

    /// <param name="address">As <see cref="For(Uri)"/>, or <c>https://host:port</c>.</param>
    /// <param name="maxReceiveMessageSize">As <see cref="For(Uri, int?)"/>.</param>
    /// <param name="tls">An https:// address's trust and client certificate (the handler sets ALPN itself); the system's trust when null.</param>
    /// <param name="connectTimeout">The longest a connection's setup may take, the TLS handshake included.</param>
    public static GrpcChannel For(Uri address, int? maxReceiveMessageSize, SslClientAuthenticationOptions? tls, TimeSpan connectTimeout)
    {
        ArgumentNullException.ThrowIfNull(address);
        var handler = new SocketsHttpHandler
        {
            // Kestrel allows 100 streams per HTTP/2 connection by default (our services raise it with
            // Http2__MaxStreamsPerConnection, other servers may not); a load run has hundreds of calls in
            // flight, and without this they would queue in the client rather than reach the service.
            EnableMultipleHttp2Connections = true,
            ConnectTimeout = connectTimeout,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            KeepAlivePingDelay = TimeSpan.FromSeconds(60),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
        };
        if (tls is not null)
        {
            handler.SslOptions = tls;
        }

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
            MaxReceiveMessageSize = maxReceiveMessageSize ?? DefaultMaxReceiveMessageSize,
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
