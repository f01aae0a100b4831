using System.Runtime.Serialization;
using System.Text;
using System.Xml;
using System.Xml.Linq;

namespace Harness.Rpc.Soap;

/// <summary>
/// One operation: its formatter (the request and response serializers, CoreWCF's IDispatchMessageFormatter) and its
/// invoker (CoreWCF's IOperationInvoker). The request wrapper is the operation name and the response wrapper
/// <c>{operation}Response</c>, both in the contract namespace.
/// </summary>
internal abstract class SoapOperation
{
    private readonly byte[] _emptyRequest;

    protected SoapOperation(string name, string action, string contractNamespace, Type requestType, Type responseType)
    {
        Name = name;
        Action = action;
        RequestWrapper = new XmlQualifiedName(name, contractNamespace);
        RequestType = requestType;
        ResponseType = responseType;
        // DataContractSerializer is thread-safe for reads and writes, so one pair serves every request.
        RequestSerializer = new DataContractSerializer(requestType, name, contractNamespace);
        ResponseSerializer = new DataContractSerializer(responseType, name + "Response", contractNamespace);
        _emptyRequest = Encoding.UTF8.GetBytes(new XElement(XName.Get(name, contractNamespace)).ToString(SaveOptions.DisableFormatting));
    }

    public string Name { get; }

    public string Action { get; }

    /// <summary>The request's wrapper element: the operation name in the contract namespace.</summary>
    public XmlQualifiedName RequestWrapper { get; }

    public Type RequestType { get; }

    public Type ResponseType { get; }

    public DataContractSerializer RequestSerializer { get; }

    public DataContractSerializer ResponseSerializer { get; }

    /// <summary>
    /// Reads the request from the body's contents to the end of the message, as WCF's DataContractSerializer operation
    /// formatter does for a wrapped message: an empty body, or an empty or nil wrapper, gives a request whose members
    /// all have their default values; any other body must start with the wrapper.
    /// </summary>
    /// <exception cref="SoapBodyMismatchException">The body starts with something else than the wrapper.</exception>
    public object ReadRequest(XmlDictionaryReader reader, bool bodyIsEmpty)
    {
        if (bodyIsEmpty)
        {
            return ReadEmptyRequest();
        }

        if (!reader.IsStartElement(RequestWrapper.Name, RequestWrapper.Namespace))
        {
            throw new SoapBodyMismatchException(Name, RequestWrapper, reader);
        }

        object? request = RequestSerializer.ReadObject(reader, verifyObjectName: false);
        SoapEnvelope.ReadFromBodyContentsToEnd(reader);
        return request ?? ReadEmptyRequest();
    }

    private object ReadEmptyRequest()
    {
        using XmlDictionaryReader empty = XmlDictionaryReader.CreateTextReader(_emptyRequest, XmlDictionaryReaderQuotas.Max);
        return RequestSerializer.ReadObject(empty, verifyObjectName: true)!;
    }

    public abstract ValueTask<object?> InvokeAsync(object? request, CancellationToken cancellationToken);
}

internal sealed class SyncSoapOperation<TRequest, TResponse>(
    string name, string action, string contractNamespace, Func<TRequest, CancellationToken, TResponse> handler)
    : SoapOperation(name, action, contractNamespace, typeof(TRequest), typeof(TResponse))
{
    public override ValueTask<object?> InvokeAsync(object? request, CancellationToken cancellationToken) =>
        new(handler((TRequest)request!, cancellationToken));
}

internal sealed class TaskSoapOperation<TRequest, TResponse>(
    string name, string action, string contractNamespace, Func<TRequest, CancellationToken, Task<TResponse>> handler)
    : SoapOperation(name, action, contractNamespace, typeof(TRequest), typeof(TResponse))
{
    // ConfigureAwait(true) on purpose: like CoreWCF, the formatter serializes the reply on the dispatch context.
    public override async ValueTask<object?> InvokeAsync(object? request, CancellationToken cancellationToken) =>
        await handler((TRequest)request!, cancellationToken).ConfigureAwait(true);
}
