using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Primitives;

namespace Harness.Rpc.Soap;

/// <summary>
/// Serves one endpoint, in the order CoreWCF's HTTP transport and dispatcher do: content type (415), size (413),
/// envelope and headers (400), action (ActionNotSupported fault), then, on the dispatch synchronization context if
/// there is one, deserialization (DeserializationFailed or, for a body that is not the request, InternalServiceFault),
/// mandatory headers (InternalServiceFault), invocation and reply serialization.
/// </summary>
internal sealed partial class SoapEndpointDispatcher
{
    private const int InitialChunkedBufferSize = 16 * 1024;

    private readonly IReadOnlyDictionary<string, SoapOperation> _operations;
    private readonly int _maxReceivedMessageSize;
    private readonly XmlDictionaryReaderQuotas _quotas;
    private readonly bool _includeExceptionDetailInFaults;
    private readonly Lazy<SynchronizationContext?> _synchronizationContext;
    private readonly ILogger _logger;

    public SoapEndpointDispatcher(SoapContract contract, SoapEndpointOptions options, IServiceProvider services, ILogger logger)
    {
        _quotas = options.CreateReaderQuotas();
        // Buffered transfer keeps the whole message in one array, as WCF's buffered mode does.
        _maxReceivedMessageSize = (int)Math.Min(options.MaxReceivedMessageSize, Array.MaxLength - 1);
        _includeExceptionDetailInFaults = options.IncludeExceptionDetailInFaults;
        Func<IServiceProvider, SynchronizationContext?>? factory = options.SynchronizationContextFactory;
        _synchronizationContext = new Lazy<SynchronizationContext?>(() => factory?.Invoke(services));
        _operations = contract.Freeze();
        _logger = logger;
    }

    public async Task HandleAsync(HttpContext context)
    {
        HttpRequest request = context.Request;
        HttpResponse response = context.Response;
        if (!HttpMethods.IsPost(request.Method))
        {
            response.Headers.Allow = HttpMethods.Post;
            Reject(context, HttpStatusCode.MethodNotAllowed, "only POST carries SOAP messages");
            return;
        }

        if (!TryGetEncoding(request.ContentType, out Encoding? encoding))
        {
            Reject(context, HttpStatusCode.UnsupportedMediaType, $"content type '{request.ContentType}' is not '{SoapNames.ContentType}'");
            return;
        }

        if (request.ContentLength > _maxReceivedMessageSize)
        {
            Reject(context, HttpStatusCode.RequestEntityTooLarge, $"Content-Length {request.ContentLength} exceeds {_maxReceivedMessageSize}");
            return;
        }

        RaiseServerBodyLimit(context);
        (byte[]? buffer, int length) = await ReadBodyAsync(context).ConfigureAwait(false);
        if (buffer is null)
        {
            return;
        }

        try
        {
            Reply reply = await ProcessAsync(context, buffer, length, encoding).ConfigureAwait(false);
            // An empty reply means a status was already set by Reject.
            if (reply.Body.Count > 0)
            {
                response.StatusCode = (int)reply.StatusCode;
                response.ContentType = SoapNames.ContentType;
                response.ContentLength = reply.Body.Count;
                await response.Body.WriteAsync(reply.Body, context.RequestAborted).ConfigureAwait(false);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async Task<Reply> ProcessAsync(HttpContext context, byte[] buffer, int length, Encoding? encoding)
    {
        if (length == 0)
        {
            Reject(context, HttpStatusCode.BadRequest, "the request has no body");
            return Reply.Empty;
        }

        XmlDictionaryReader? opened = null;
        EnvelopeStart envelope;
        try
        {
            // Creating the reader already decodes the message's start (byte-order mark, XML declaration), so a UTF-16
            // body without a declaration or charset fails here, before the envelope is read.
            opened = XmlDictionaryReader.CreateTextReader(buffer, 0, length, encoding, _quotas, onClose: null);
            envelope = SoapEnvelope.ReadToBodyContents(opened);
        }
        catch (Exception e)
        {
            // Only the XML reader and the envelope checks run here, so whatever fails is input the reader could not read.
            // The reader is not hardened: besides XmlException it throws ArgumentException or IndexOutOfRangeException
            // on some truncated input, and every one of them gets the same deliberate 400.
            opened?.Dispose();
            Reject(context, HttpStatusCode.BadRequest, e.Message);
            return Reply.Empty;
        }

        using XmlDictionaryReader reader = opened;
        string? action = ParseSoapAction(context.Request.Headers[SoapNames.SoapActionHeader]);
        if (action is null || !_operations.TryGetValue(action, out SoapOperation? operation))
        {
            // CoreWCF's unhandled-action operation checks mandatory headers too, before its invoker raises ActionNotSupported.
            if (envelope.NotUnderstood is { } header)
            {
                return HeaderNotUnderstood(action ?? "", header);
            }

            LogActionNotSupported(_logger, context.Request.Path, action);
            return Reply.Fault(SoapFault.ActionNotSupported(action));
        }

        var incoming = new Incoming(operation, reader, envelope);
        SynchronizationContext? dispatchContext = _synchronizationContext.Value;
        return dispatchContext is null
            ? await ExecuteAsync(incoming, context.RequestAborted).ConfigureAwait(false)
            : await PostToContextAsync(dispatchContext, incoming, context.RequestAborted).ConfigureAwait(false);
    }

    /// <summary>
    /// Posts the invocation to the dispatch context, as CoreWCF's ImmutableDispatchRuntime awaits the
    /// DispatchRuntime.SynchronizationContext before invoking. The reply is written after returning to the thread pool.
    /// </summary>
    private Task<Reply> PostToContextAsync(SynchronizationContext dispatchContext, Incoming incoming, CancellationToken cancellationToken)
    {
        // Asynchronous continuations keep the HTTP write off the dispatch context's thread.
        var completion = new TaskCompletionSource<Reply>(TaskCreationOptions.RunContinuationsAsynchronously);
        dispatchContext.Post(
            _ =>
            {
                SynchronizationContext? previous = SynchronizationContext.Current;
                // Current is set for the operation's start so its awaits capture the dispatch context and resume on it.
                SynchronizationContext.SetSynchronizationContext(dispatchContext);
                try
                {
                    _ = CompleteAsync(incoming, cancellationToken, completion);
                }
                finally
                {
                    SynchronizationContext.SetSynchronizationContext(previous);
                }
            },
            state: null);
        return completion.Task;
    }

    private async Task CompleteAsync(Incoming incoming, CancellationToken cancellationToken, TaskCompletionSource<Reply> completion)
    {
        try
        {
            completion.SetResult(await ExecuteAsync(incoming, cancellationToken).ConfigureAwait(true));
        }
        catch (Exception e)
        {
            completion.TrySetException(e);
        }
    }

    /// <summary>
    /// Deserializes, checks mandatory headers, invokes and serializes on the calling context, in CoreWCF's order
    /// (DispatchOperationRuntime.InvokeAsync), turning every failure into a fault.
    /// </summary>
    private async Task<Reply> ExecuteAsync(Incoming incoming, CancellationToken cancellationToken)
    {
        SoapOperation operation = incoming.Operation;
        object? request;
        try
        {
            request = operation.ReadRequest(incoming.Reader, incoming.Envelope.IsEmpty);
        }
        catch (SoapBodyMismatchException e)
        {
            // WCF's formatter throws this outside its parameter handling, so CoreWCF answers InternalServiceFault.
            LogBodyMismatch(_logger, operation.Name, e.Message);
            return Reply.Fault(SoapFault.InternalServiceFault(e, _includeExceptionDetailInFaults));
        }
        catch (Exception e) when (IsUnreadableXml(e) || e is SerializationException or FormatException)
        {
            // WCF reads the body lazily in its formatter, so a bad payload is a DeserializationFailed fault, not a 400.
            LogDeserializationFailed(_logger, operation.Name, e.Message);
            return Reply.Fault(SoapFault.DeserializationFailed(operation.Name, e, _includeExceptionDetailInFaults));
        }
        catch (Exception e)
        {
            // Not the service's failure (the operation has not run), so it is logged below Error.
            LogRequestUnreadable(_logger, e, operation.Name);
            return Reply.Fault(SoapFault.InternalServiceFault(e, _includeExceptionDetailInFaults));
        }

        if (incoming.Envelope.NotUnderstood is { } header)
        {
            return HeaderNotUnderstood(operation.Action, header);
        }

        object? result;
        try
        {
            result = await operation.InvokeAsync(request, cancellationToken).ConfigureAwait(true);
        }
        catch (SoapFaultException e)
        {
            return Reply.Fault(SoapFault.FromException(e));
        }
        catch (Exception e)
        {
            return InternalServiceFault(operation, e);
        }

        try
        {
            return new Reply(HttpStatusCode.OK, SoapEnvelope.Write(operation.ResponseSerializer, result));
        }
        catch (Exception e)
        {
            return InternalServiceFault(operation, e);
        }
    }

    /// <summary>
    /// A mandatory header nobody understands. CoreWCF raises MustUnderstandSoapException, which its HTTP transport has
    /// no fault converter for, so the client gets an InternalServiceFault rather than SOAP's MustUnderstand fault.
    /// </summary>
    private Reply HeaderNotUnderstood(string action, XmlQualifiedName header)
    {
        LogHeaderNotUnderstood(_logger, action, header.Name, header.Namespace);
        return Reply.Fault(SoapFault.InternalServiceFault(new SoapHeaderNotUnderstoodException(header), _includeExceptionDetailInFaults));
    }

    private Reply InternalServiceFault(SoapOperation operation, Exception exception)
    {
        LogUnhandledException(_logger, exception, operation.Name);
        return Reply.Fault(SoapFault.InternalServiceFault(exception, _includeExceptionDetailInFaults));
    }

    /// <summary>Reads the body into a pooled buffer, answering 413 and returning null once it passes the limit.</summary>
    private async Task<(byte[]? Buffer, int Length)> ReadBodyAsync(HttpContext context)
    {
        long? declared = context.Request.ContentLength;
        int capacity = declared is long known ? (int)known : Math.Min(InitialChunkedBufferSize, _maxReceivedMessageSize + 1);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(Math.Max(capacity, 1));
        int length = 0;
        try
        {
            while (declared is null || length < declared)
            {
                if (length == buffer.Length)
                {
                    buffer = Grow(buffer, length, (int)Math.Min(2L * buffer.Length, _maxReceivedMessageSize + 1L));
                }

                int read = await context.Request.Body.ReadAsync(buffer.AsMemory(length), context.RequestAborted).ConfigureAwait(false);
                if (read == 0)
                {
                    break;
                }

                length += read;
                if (length > _maxReceivedMessageSize)
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                    Reject(context, HttpStatusCode.RequestEntityTooLarge, $"the chunked body exceeds {_maxReceivedMessageSize} bytes");
                    return (null, 0);
                }
            }

            return (buffer, length);
        }
        catch (BadHttpRequestException e)
        {
            // Kestrel's own limits and framing errors (for example a body past MaxRequestBodySize) carry their status.
            ArrayPool<byte>.Shared.Return(buffer);
            Reject(context, (HttpStatusCode)e.StatusCode, e.Message);
            return (null, 0);
        }
        catch (Exception e) when (e is IOException or OperationCanceledException && context.RequestAborted.IsCancellationRequested)
        {
            ArrayPool<byte>.Shared.Return(buffer);
            return (null, 0);
        }
    }

    private static byte[] Grow(byte[] buffer, int length, int size)
    {
        byte[] larger = ArrayPool<byte>.Shared.Rent(size);
        buffer.AsSpan(0, length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        return larger;
    }

    private void RaiseServerBodyLimit(HttpContext context)
    {
        // Kestrel's default limit (30 MB) would otherwise cap a larger MaxReceivedMessageSize, as CoreWCF also handles.
        IHttpMaxRequestBodySizeFeature? limit = context.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (limit is { IsReadOnly: false, MaxRequestBodySize: long current } && current < _maxReceivedMessageSize)
        {
            limit.MaxRequestBodySize = _maxReceivedMessageSize;
        }
    }

    private void Reject(HttpContext context, HttpStatusCode status, string reason)
    {
        LogRejected(_logger, context.Request.Path, (int)status, reason);
        if (!context.Response.HasStarted)
        {
            context.Response.StatusCode = (int)status;
            context.Response.ContentLength = 0;
        }
    }

    /// <summary>
    /// Whether the XML reader failed on the input. Besides <see cref="XmlException"/>, the text reader throws
    /// <see cref="ArgumentException"/> for a qualified name cut off after its colon (<c>&lt;s:</c> at the end) and
    /// <see cref="IndexOutOfRangeException"/> for a truncated XML declaration.
    /// </summary>
    private static bool IsUnreadableXml(Exception e) =>
        e is XmlException or DecoderFallbackException or ArgumentException or IndexOutOfRangeException;

    /// <summary>Accepts text/xml with UTF-8 or UTF-16, as WCF's SOAP 1.1 text encoder does; no charset means detect it.</summary>
    internal static bool TryGetEncoding(string? contentType, out Encoding? encoding)
    {
        encoding = null;
        if (!MediaTypeHeaderValue.TryParse(contentType, out MediaTypeHeaderValue? parsed)
            || !string.Equals(parsed.MediaType, SoapNames.MediaType, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        string? charset = parsed.CharSet?.Trim('"');
        if (string.IsNullOrEmpty(charset))
        {
            return true;
        }

        encoding = charset.ToUpperInvariant() switch
        {
            "UTF-8" => Encoding.UTF8,
            "UTF-16" or "UTF-16LE" or "UNICODE" => Encoding.Unicode,
            "UTF-16BE" or "UNICODEFFFE" => Encoding.BigEndianUnicode,
            _ => null,
        };
        return encoding is not null;
    }

    /// <summary>Unquotes and URL-decodes the SOAPAction header, as CoreWCF's HttpInput does; null when absent.</summary>
    internal static string? ParseSoapAction(StringValues header)
    {
        string? raw = header.Count == 0 ? null : header[0];
        if (raw is null)
        {
            return null;
        }

        string action = WebUtility.UrlDecode(raw.Trim());
        return action.Length >= 2 && action[0] == '"' && action[^1] == '"' ? action[1..^1] : action;
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request to {Path} rejected with HTTP {StatusCode}: {Reason}")]
    private static partial void LogRejected(ILogger logger, PathString path, int statusCode, string reason);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request to {Path} has action '{Action}', which the contract does not have")]
    private static partial void LogActionNotSupported(ILogger logger, PathString path, string? action);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP operation {Operation} could not deserialize its request: {Reason}")]
    private static partial void LogDeserializationFailed(ILogger logger, string operation, string reason);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP operation {Operation} got a body that is not its request: {Reason}")]
    private static partial void LogBodyMismatch(ILogger logger, string operation, string reason);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request for action '{Action}' has a mandatory header {Header} in {Namespace} that is not understood")]
    private static partial void LogHeaderNotUnderstood(ILogger logger, string action, string header, string @namespace);

    [LoggerMessage(Level = LogLevel.Warning, Message = "SOAP operation {Operation} could not read its request")]
    private static partial void LogRequestUnreadable(ILogger logger, Exception exception, string operation);

    [LoggerMessage(Level = LogLevel.Error, Message = "SOAP operation {Operation} failed with an unhandled exception")]
    private static partial void LogUnhandledException(ILogger logger, Exception exception, string operation);

    /// <summary>A request past the envelope phase, dispatched to its operation.</summary>
    private readonly record struct Incoming(SoapOperation Operation, XmlDictionaryReader Reader, EnvelopeStart Envelope);

    /// <summary>What to answer: a SOAP message (200 reply or 500 fault), or nothing beyond a status already set.</summary>
    private readonly record struct Reply(HttpStatusCode StatusCode, ArraySegment<byte> Body)
    {
        public static Reply Empty => default;

        // SOAP 1.1 over HTTP sends every fault with status 500.
        public static Reply Fault(SoapFault fault) => new(HttpStatusCode.InternalServerError, SoapEnvelope.WriteFault(fault));
    }
}
