using System.Runtime.Serialization;

namespace Harness.Rpc.Soap;

/// <summary>
/// One operation: its formatter (the request and response serializers, CoreWCF's IDispatchMessageFormatter) and its
/// invoker (CoreWCF's IOperationInvoker). The request wrapper is the operation name and the response wrapper
/// <c>{operation}Response</c>, both in the contract namespace.
/// </summary>
internal abstract class SoapOperation
{
    protected SoapOperation(string name, string action, string contractNamespace, Type requestType, Type responseType)
    {
        Name = name;
        Action = action;
        // DataContractSerializer is thread-safe for reads and writes, so one pair serves every request.
        RequestSerializer = new DataContractSerializer(requestType, name, contractNamespace);
        ResponseSerializer = new DataContractSerializer(responseType, name + "Response", contractNamespace);
    }

    public string Name { get; }

    public string Action { get; }

    public DataContractSerializer RequestSerializer { get; }

    public DataContractSerializer ResponseSerializer { get; }

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
