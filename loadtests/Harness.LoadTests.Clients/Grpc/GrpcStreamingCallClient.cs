using Grpc.Core;
using Grpc.Net.Client;
using Harness.Contracts;
using Harness.LoadTests.Shared;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// One streaming method called with bytes in and bytes out, through Grpc.Net.Client as a unary <c>--call</c> is
/// (<see cref="GrpcCallClient"/>). The semantics are ghz's: a call writes every request message of its body (one for a
/// server stream), half-closes, and reads every reply until the server ends the stream; a bidirectional call reads
/// while it writes. The call's latency is the whole call; its <see cref="CallStream"/> has the messages each way, the
/// time to the first reply message and the gaps between reply messages.
/// </summary>
internal sealed class GrpcStreamingCallClient : ICallClient
{
    private readonly GrpcChannel _channel;
    private readonly CallInvoker _invoker;
    private readonly Method<byte[], byte[]> _method;
    private readonly Metadata _headers;
    private readonly TimeSpan _timeout;
    private readonly TimeSpan _interval;
    private EncodedRequest<byte[], IReadOnlyList<byte[]>>? _lastUnpacked;

    /// <param name="type">Server-streaming, client-streaming or bidirectional.</param>
    /// <param name="interval">Between two request messages of a client or bidirectional stream (ghz's <c>--stream-interval</c>); zero: none.</param>
    /// <inheritdoc cref="GrpcCallClient(Uri, string, string, Metadata, TimeSpan?, int, ClientTls?)"/>
    public GrpcStreamingCallClient(
        Uri address, string service, string method, MethodType type, Metadata headers, TimeSpan? timeout = null, int maxReceiveMessageSize = MessageSizes.Default,
        ClientTls? tls = null, TimeSpan interval = default)
    {
        if (type == MethodType.Unary)
        {
            throw new ArgumentException("A unary method is GrpcCallClient's.", nameof(type));
        }

        _timeout = timeout ?? CallTimeouts.Default;
        _interval = interval;
        _channel = LoadChannel.For(
            address, maxReceiveMessageSize, (tls ?? ClientTls.System).For(host: null, System.Net.Security.SslApplicationProtocol.Http2), CallTimeouts.ConnectTimeout(_timeout));
        _invoker = _channel.CreateCallInvoker();
        _method = new Method<byte[], byte[]>(type, service, method, GrpcCallClient.Bytes, GrpcCallClient.Bytes);
        _headers = headers;
    }

    /// <param name="body">One message for a server stream; the packed messages (<see cref="RequestStream"/>) of a client or bidirectional one.</param>
    public async Task<CallReply> SendAsync(byte[] body, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + _timeout;
        try
        {
            return await CallAsync(body, new CallOptions(_headers, deadline, cancellationToken), cancellationToken);
        }
        catch (RpcException ex) when (DeadlineAbort.IsDeadline(ex, deadline))
        {
            throw DeadlineAbort.AsDeadline(ex);
        }
    }

    public void Dispose() => _channel.Dispose();

    private async Task<CallReply> CallAsync(byte[] body, CallOptions options, CancellationToken cancellationToken)
    {
        var clock = new MessageClock();
        byte[]? first = null;
        Metadata trailers;
        switch (_method.Type)
        {
            case MethodType.ServerStreaming:
            {
                using var call = _invoker.AsyncServerStreamingCall(_method, null, options, body);
                clock.Sent();
                first = await ReadAllAsync(call.ResponseStream, clock, cancellationToken);
                trailers = call.GetTrailers();
                break;
            }

            case MethodType.ClientStreaming:
            {
                using var call = _invoker.AsyncClientStreamingCall(_method, null, options);
                await WriteAllAsync(call.RequestStream, body, clock, cancellationToken);
                first = await call.ResponseAsync;
                clock.Received();
                trailers = call.GetTrailers();
                break;
            }

            default:
            {
                using var call = _invoker.AsyncDuplexStreamingCall(_method, null, options);
                var reading = ReadAllAsync(call.ResponseStream, clock, cancellationToken);
                try
                {
                    await WriteAllAsync(call.RequestStream, body, clock, cancellationToken);
                }
                catch (RpcException) when (reading.IsCompleted)
                {
                    // The server ended the call while we wrote: its status, from the read, is the call's.
                }
                catch
                {
                    // The write's failure is the call's; the read ends with the call, and its fault is observed here.
                    _ = reading.ContinueWith(static read => read.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
                    throw;
                }

                first = await reading;
                trailers = call.GetTrailers();
                break;
            }
        }

        return new CallReply(
            first ?? [], ServerTime.FromTrailers(trailers), new CallStream(clock.MessagesSent, clock.MessagesReceived, clock.FirstMessage, clock.MessageGaps));
    }

    private static async Task<byte[]?> ReadAllAsync(IAsyncStreamReader<byte[]> replies, MessageClock clock, CancellationToken cancellationToken)
    {
        byte[]? first = null;
        while (await replies.MoveNext(cancellationToken))
        {
            clock.Received();
            first ??= replies.Current;
        }

        return first;
    }

    private async Task WriteAllAsync(IClientStreamWriter<byte[]> requests, byte[] body, MessageClock clock, CancellationToken cancellationToken)
    {
        // A template without placeholders hands every call the same bytes: they are split into messages once.
        var messages = EncodedRequest<byte[], IReadOnlyList<byte[]>>.Reuse(ref _lastUnpacked, body, RequestStream.Unpack);
        for (var i = 0; i < messages.Count; i++)
        {
            if (i > 0 && _interval > TimeSpan.Zero)
            {
                await Task.Delay(_interval, cancellationToken);
            }

            await requests.WriteAsync(messages[i], cancellationToken);
            clock.Sent();
        }

        await requests.CompleteAsync();
    }
}
