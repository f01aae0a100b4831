using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Harness.Contracts;
using Harness.Contracts.Grpc;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// The harness's own two gRPC operations over Grpc.Net.Client (<see cref="LoadChannel"/>, as the typed client), with
/// the request serialized once per distinct set of arguments and passed through as bytes: a run sends the same
/// message on every call. Replies are parsed by the generated types from the received buffer, as the typed client
/// does, and failures surface as the same <see cref="RpcException"/>s, so they are counted alike. One channel, as
/// the typed client: it opens another HTTP/2 connection only when a connection's stream limit is reached, and two or
/// four connections from the start did not make 32 calls in flight cheaper (docs/runner-cost.md).
/// </summary>
internal sealed class GrpcNetHarnessClient : IHarnessClient
{
    private static readonly Method<byte[], ComputeReply> Compute = new(
        MethodType.Unary, HarnessContract.GrpcService, HarnessContract.Compute, GrpcCallClient.Bytes, Reply(ComputeReply.Parser));

    private static readonly Method<byte[], CallThirdPartyReply> CallThirdParty = new(
        MethodType.Unary, HarnessContract.GrpcService, HarnessContract.CallThirdParty, GrpcCallClient.Bytes, Reply(CallThirdPartyReply.Parser));

    private readonly GrpcChannel _channel;
    private readonly CallInvoker _invoker;
    private readonly TimeSpan _timeout;
    private EncodedRequest<int, byte[]>? _lastCompute;
    private EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>? _lastCallThirdParty;

    /// <param name="address">The service's HTTP/2 address, e.g. <c>http://127.0.0.1:5082</c> or <c>https://host:port</c>.</param>
    /// <param name="timeout">Each call's deadline (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null): DEADLINE_EXCEEDED past it.</param>
    /// <param name="maxReceiveMessageSize">The largest reply message (<c>--max-message-size</c>): RESOURCE_EXHAUSTED past it.</param>
    /// <param name="tls">An https:// address's trust and client certificate; the system's trust when null.</param>
    public GrpcNetHarnessClient(Uri address, TimeSpan? timeout = null, int maxReceiveMessageSize = MessageSizes.Default, ClientTls? tls = null)
    {
        _timeout = timeout ?? CallTimeouts.Default;
        _channel = LoadChannel.For(
            address, maxReceiveMessageSize, (tls ?? ClientTls.System).For(host: null, System.Net.Security.SslApplicationProtocol.Http2), CallTimeouts.ConnectTimeout(_timeout));
        _invoker = _channel.CreateCallInvoker();
    }

    public string Stack => "grpc";

    // The call completes (and releases its stream) when its reply has been read, so its response task is all a caller needs.
    public Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<int, byte[]>.Reuse(ref _lastCompute, iterations, static n => new ComputeRequest { Iterations = n }.ToByteArray());
        return _invoker.AsyncUnaryCall(Compute, null, Options(cancellationToken), body).ResponseAsync;
    }

    public Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>.Reuse(
            ref _lastCallThirdParty,
            (fanout, delayMs, style, parallelism),
            static k => new CallThirdPartyRequest { Fanout = k.Fanout, DelayMs = k.DelayMs, Style = k.Style, Parallelism = k.Parallelism }.ToByteArray());
        return _invoker.AsyncUnaryCall(CallThirdParty, null, Options(cancellationToken), body).ResponseAsync;
    }

    private CallOptions Options(CancellationToken cancellationToken) => new(deadline: DateTime.UtcNow + _timeout, cancellationToken: cancellationToken);

    public void Dispose() => _channel.Dispose();

    /// <summary>The reply parsed from the received payload without a copy, as the generated client's marshaller does.</summary>
    private static Marshaller<T> Reply<T>(MessageParser<T> parser)
        where T : IMessage<T> =>
        Marshallers.Create<T>(
            (_, _) => throw new NotSupportedException("replies are only read"),
            context => parser.ParseFrom(context.PayloadAsReadOnlySequence()));
}
