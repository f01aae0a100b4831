using System.Buffers;
using System.Net;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;
using Harness.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Soap;

/// <summary>
/// Serves one endpoint, in the order CoreWCF's HTTP transport and dispatcher do: the HTTP input (400 without a body,
/// 415, 413; see <see cref="SoapHttpInput"/>), envelope and headers (400), address (DestinationUnreachable fault; see
/// <see cref="SoapEndpointAddress"/>), action (ActionNotSupported fault), then, on
/// the dispatch synchronization context if there is one, deserialization (DeserializationFailed or, for a body that is
/// not the request, InternalServiceFault), mandatory headers (InternalServiceFault), invocation and reply serialization.
/// </summary>
internal sealed partial class SoapEndpointDispatcher
{
    private readonly IReadOnlyDictionary<string, SoapOperation> _operations;
    private readonly SoapHttpInput _input;
    private readonly SoapMetadataEndpoint? _metadata;
    private readonly SoapEndpointAddress _address;
    private readonly XmlDictionaryReaderQuotas _quotas;
    private readonly bool _includeExceptionDetailInFaults;
    private readonly Lazy<SynchronizationContext?> _synchronizationContext;
    private readonly ILogger _logger;

    public SoapEndpointDispatcher(SoapEndpointAddress address, SoapContract contract, SoapEndpointOptions options, IServiceProvider services, ILogger logger)
    {
        _address = address;
        _quotas = options.CreateReaderQuotas();
        // Buffered transfer keeps the whole message in one array, as WCF's buffered mode does.
        _input = new SoapHttpInput((int)Math.Min(options.MaxReceivedMessageSize, Array.MaxLength - 1));
        _includeExceptionDetailInFaults = options.IncludeExceptionDetailInFaults;
        Func<IServiceProvider, SynchronizationContext?>? factory = options.SynchronizationContextFactory;
        _synchronizationContext = new Lazy<SynchronizationContext?>(() => factory?.Invoke(services));
        IReadOnlyList<SoapOperation> operations = contract.Freeze();
        _operations = operations.ToDictionary(operation => operation.Action, StringComparer.Ordinal);
        // Built now, so a contract whose schemas cannot be published fails when it is mapped, not on the first ?wsdl.
        SoapMetadata? metadata = options.HttpGetEnabled ? new SoapMetadata(contract.Name, contract.Namespace, operations) : null;
        _metadata = metadata is not null || options.HttpHelpPageEnabled
            ? new SoapMetadataEndpoint(SoapMetadata.ServiceNameOf(contract.Name), metadata, options.HttpHelpPageEnabled)
            : null;
        _logger = logger;
    }

    public async Task HandleAsync(HttpContext context)
    {
        // CoreWCF's metadata and debug behaviors answer GET at the endpoint's own path; any other method, any other
        // path below it, and a GET they leave, is a SOAP request.
        if (_metadata is not null && HttpMethods.IsGet(context.Request.Method) && _address.IsMetadataPath(context.Request.Path)
            && await _metadata.TryServeAsync(context).ConfigureAwait(false))
        {
            return;
        }

        HttpInputResult input = await _input.ReadAsync(context).ConfigureAwait(false);
        if (input.Buffer is not { } buffer)
        {
            if (input.Status is { } status)
            {
                Reject(context, status, input.Reason!);
            }

            return;
        }

        try
        {
            Reply reply = await ProcessAsync(context, buffer, input.Length, input.Encoding).ConfigureAwait(false);
            // An empty reply means a status was already set by Reject, or the client has gone.
            if (reply.Body.Count > 0)
            {
                HttpResponse response = context.Response;
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
        // CoreWCF's endpoint filter: the address first (DestinationUnreachable), then the contract, whose filter is the
        // operations' actions (ActionNotSupported); a message failing either never reaches an operation, so its
        // mandatory headers are not looked at.
        if (!_address.Matches(context.Request.Path))
        {
            LogAddressNotMatched(_logger, Echo.Bounded(context.Request.Path.Value));
            return Reply.Fault(SoapFault.DestinationUnreachable(SoapEndpointAddress.ToHeaderOf(context.Request)));
        }

        string? action = SoapHttpInput.ParseSoapAction(context.Request.Headers[SoapNames.SoapActionHeader]);
        if (action is null || !_operations.TryGetValue(action, out SoapOperation? operation))
        {
            LogActionNotSupported(_logger, context.Request.Path, Echo.Bounded(action));
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
            LogDeserializationFailed(_logger, operation.Name, Echo.Bounded(e.Message));
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
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The client has gone and the operation stopped for it: nobody to answer, and nothing went wrong here.
            LogAbandoned(_logger, operation.Name);
            return Reply.Empty;
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
        LogHeaderNotUnderstood(_logger, Echo.Bounded(action), Echo.Bounded(header.Name), Echo.Bounded(header.Namespace));
        return Reply.Fault(SoapFault.InternalServiceFault(new SoapHeaderNotUnderstoodException(header), _includeExceptionDetailInFaults));
    }

    private Reply InternalServiceFault(SoapOperation operation, Exception exception)
    {
        LogUnhandledException(_logger, exception, operation.Name);
        return Reply.Fault(SoapFault.InternalServiceFault(exception, _includeExceptionDetailInFaults));
    }

    private void Reject(HttpContext context, HttpStatusCode status, string reason)
    {
        LogRejected(_logger, Echo.Bounded(context.Request.Path.Value), (int)status, Echo.Bounded(reason));
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

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request to {Path} rejected with HTTP {StatusCode}: {Reason}")]
    private static partial void LogRejected(ILogger logger, string? path, int statusCode, string reason);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request to {Path} is below the endpoint but not at its address")]
    private static partial void LogAddressNotMatched(ILogger logger, string? path);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP request to {Path} has action '{Action}', which the contract does not have")]
    private static partial void LogActionNotSupported(ILogger logger, PathString path, string? action);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP operation {Operation} could not deserialize its request: {Reason}")]
    private static partial void LogDeserializationFailed(ILogger logger, string operation, string reason);

    [LoggerMessage(Level = LogLevel.Debug, Message = "SOAP operation {Operation} stopped: the client abandoned the request")]
    private static partial void LogAbandoned(ILogger logger, string operation);

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
