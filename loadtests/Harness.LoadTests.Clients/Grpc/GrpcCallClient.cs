using Grpc.Core;
using Grpc.Net.Client;
using Harness.Contracts;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// One unary method called with bytes in and bytes out: a <see cref="Method{TRequest, TResponse}"/> of byte arrays
/// whose marshallers pass them through, so no generated type is needed. The channel is the typed client's
/// (<see cref="LoadChannel"/>), so a <c>--call</c> and <c>--operations</c> load a service alike.
/// </summary>
internal sealed class GrpcCallClient : ICallClient
{
    /// <summary>Bytes passed through as they are, both ways (also the lean client's requests).</summary>
    internal static readonly Marshaller<byte[]> Bytes = Marshallers.Create(bytes => bytes, bytes => bytes);

    private readonly GrpcChannel _channel;
    private readonly CallInvoker _invoker;
    private readonly Method<byte[], byte[]> _method;
    private readonly Metadata _headers;
    private readonly TimeSpan _timeout;

    /// <param name="timeout">Each call's deadline (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null): DEADLINE_EXCEEDED past it.</param>
    /// <param name="maxReceiveMessageSize">The largest reply message (<c>--max-message-size</c>): RESOURCE_EXHAUSTED past it.</param>
    /// <param name="tls">An https:// address's trust and client certificate; the system's trust when null.</param>
    public GrpcCallClient(
        Uri address, string service, string method, Metadata headers, TimeSpan? timeout = null, int maxReceiveMessageSize = MessageSizes.Default, ClientTls? tls = null)
    {
        _timeout = timeout ?? CallTimeouts.Default;
        _channel = LoadChannel.For(
            address, maxReceiveMessageSize, (tls ?? ClientTls.System).For(host: null, System.Net.Security.SslApplicationProtocol.Http2), CallTimeouts.ConnectTimeout(_timeout));
        _invoker = _channel.CreateCallInvoker();
        _method = new Method<byte[], byte[]>(MethodType.Unary, service, method, Bytes, Bytes);
        _headers = headers;
    }

    /// <remarks>The trailers are read once the reply has arrived, when they have too, so this waits for nothing more.</remarks>
    public async Task<CallReply> SendAsync(byte[] body, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + _timeout;
        using var call = _invoker.AsyncUnaryCall(_method, null, new CallOptions(_headers, deadline, cancellationToken), body);
        try
        {
            var reply = await call.ResponseAsync;
            return new CallReply(reply, ServerTime.FromTrailers(call.GetTrailers()));
        }
        catch (RpcException ex) when (DeadlineAbort.IsDeadline(ex, deadline))
        {
            throw DeadlineAbort.AsDeadline(ex);
        }
    }

    public void Dispose() => _channel.Dispose();
}
