using System.Buffers.Binary;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using Google.Protobuf;
using Grpc.Core;
using Harness.Contracts;
using Harness.Contracts.Grpc;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// <c>--grpc-client lean</c>, the default: the harness's own two gRPC operations written as HTTP/2 frames straight
/// onto a socket, as h2load does, instead of through Grpc.Net.Client and SocketsHttpHandler (about five times
/// h2load's CPU per call, docs/runner-cost.md). Each method's header block is encoded once, each distinct request
/// message once; calls share connections up to the server's stream limit, and their frames go out together. Replies
/// are the generated types, and every failure the same <see cref="RpcException"/> Grpc.Net.Client raises for the same
/// event, so <c>FailureStatus</c> counts both clients alike.
/// </summary>
internal sealed class Http2GrpcClient : IHarnessClient
{
    private readonly Http2ConnectionPool _pool;
    private readonly byte[] _computeHeaders;
    private readonly byte[] _callThirdPartyHeaders;
    private readonly bool _asynchronousContinuations;
    private readonly TimeSpan _timeout;
    private readonly int _maxReceiveMessageSize;
    private EncodedRequest<int, byte[]>? _lastCompute;
    private EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>? _lastCallThirdParty;

    /// <param name="address">The service's HTTP/2 address, <c>http://host:port</c>, <c>https://host:port</c> (TLS, ALPN h2), or a Unix domain socket, <c>unix:///path</c>.</param>
    /// <param name="asynchronousContinuations">
    /// True (the default): a call's continuation runs on the ThreadPool, so the reader loop goes on to the next frame at
    /// once; false: on the reader loop that completed it, which saved no measurable CPU at 32 calls in flight
    /// (docs/runner-cost.md) but would make every later stream of the same read wait for the whole user iteration that
    /// follows (recorded as their latency), and would deadlock a caller that blocks on another call of the connection.
    /// </param>
    /// <param name="streamsPerConnection">Calls a connection carries before a new one takes over (its stream ids; lower in tests).</param>
    /// <param name="timeout">
    /// A call's deadline (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null): past it the call fails with
    /// DEADLINE_EXCEEDED, as Grpc.Net.Client's deadline does; also sent as <c>grpc-timeout</c>.
    /// </param>
    /// <param name="maxReceiveMessageSize">
    /// The largest reply message accepted, in bytes (Grpc.Net.Client's MaxReceiveMessageSize, 4 MiB by default, at most
    /// 1 GiB): a reply whose length prefix is larger fails with RESOURCE_EXHAUSTED before any of it is buffered.
    /// </param>
    /// <param name="loggerFactory">Where the connections' events are logged (docs/hostile-servers.md, "Tracing the clients"); nowhere when null.</param>
    /// <param name="tls">How an https:// address is trusted and whether a client certificate is sent; the system's trust when null.</param>
    public Http2GrpcClient(
        Uri address,
        bool asynchronousContinuations = true,
        long streamsPerConnection = Http2ConnectionPool.StreamIdBudget,
        TimeSpan? timeout = null,
        int maxReceiveMessageSize = Http2Limits.DefaultMaxReceiveMessageSize,
        ILoggerFactory? loggerFactory = null,
        ClientTls? tls = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxReceiveMessageSize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxReceiveMessageSize, Http2Limits.MaxReceiveMessageSizeLimit);
        var (endPoint, authority) = Target(address);
        var https = address.Scheme == Uri.UriSchemeHttps;
        _timeout = timeout ?? CallTimeouts.Default;
        _maxReceiveMessageSize = maxReceiveMessageSize;
        _pool = new Http2ConnectionPool(
            endPoint, streamsPerConnection, Http2Limits.StreamReceiveWindow(maxReceiveMessageSize), CallTimeouts.ConnectTimeout(_timeout),
            loggerFactory?.CreateLogger<Http2GrpcClient>(),
            https ? (tls ?? ClientTls.System).For(address.IdnHost, SslApplicationProtocol.Http2) : null);
        _computeHeaders = RequestHeaders.Encode($"/{HarnessContract.GrpcService}/{HarnessContract.Compute}", authority, _timeout, https);
        _callThirdPartyHeaders = RequestHeaders.Encode($"/{HarnessContract.GrpcService}/{HarnessContract.CallThirdParty}", authority, _timeout, https);
        _asynchronousContinuations = asynchronousContinuations;
    }

    public string Stack => "grpc";

    /// <summary>The connections open or opening (tests).</summary>
    internal int Connections => _pool.Count;

    public Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<int, byte[]>.Reuse(ref _lastCompute, iterations, static n => Framed(new ComputeRequest { Iterations = n }));
        var call = new UnaryCall<ComputeReply>(_computeHeaders, body, ComputeReply.Parser, _asynchronousContinuations, _maxReceiveMessageSize);
        Start(call, cancellationToken);
        return call.Task;
    }

    public Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>.Reuse(
            ref _lastCallThirdParty,
            (fanout, delayMs, style, parallelism),
            static k => Framed(new CallThirdPartyRequest { Fanout = k.Fanout, DelayMs = k.DelayMs, Style = k.Style, Parallelism = k.Parallelism }));
        var call = new UnaryCall<CallThirdPartyReply>(_callThirdPartyHeaders, body, CallThirdPartyReply.Parser, _asynchronousContinuations, _maxReceiveMessageSize);
        Start(call, cancellationToken);
        return call.Task;
    }

    public void Dispose() => _pool.Dispose();

    /// <summary>The message with gRPC's 5-byte prefix (not compressed, big-endian length).</summary>
    internal static byte[] Framed(IMessage message)
    {
        var size = message.CalculateSize();
        var framed = new byte[5 + size];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), (uint)size);
        message.WriteTo(framed.AsSpan(5));
        return framed;
    }

    private void Start(Http2Stream call, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            call.Fail(GrpcStatuses.Cancelled, reset: false);
        }
        else if (_pool.Rent() is { } connection)
        {
            connection.Start(call, cancellationToken);
            call.WatchDeadline(_timeout);
        }
        else
        {
            call.Fail(new Status(StatusCode.Cancelled, "The client was disposed."), reset: false);
        }
    }

    private static (EndPoint EndPoint, string Authority) Target(Uri address)
    {
        if (address.Scheme == LoadChannel.UnixScheme)
        {
            // As LoadChannel's handler: the socket is the path, the :authority a placeholder.
            return (new UnixDomainSocketEndPoint(Uri.UnescapeDataString(address.AbsolutePath)), "localhost");
        }

        if (address.Scheme != Uri.UriSchemeHttp && address.Scheme != Uri.UriSchemeHttps)
        {
            throw new ArgumentException($"the lean gRPC client speaks HTTP/2 (http://, https:// or unix://), not {address.Scheme}://", nameof(address));
        }

        EndPoint endPoint = IPAddress.TryParse(address.IdnHost, out var ip) ? new IPEndPoint(ip, address.Port) : new DnsEndPoint(address.IdnHost, address.Port);
        return (endPoint, address.Authority);
    }
}
