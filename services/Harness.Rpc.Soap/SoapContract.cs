using System.Xml;

namespace Harness.Rpc.Soap;

/// <summary>
/// A service contract, the counterpart of a WCF <c>[ServiceContract]</c>: a name, a namespace and operations in the
/// document/literal wrapped style, each dispatched by its SOAP action and (de)serialized with
/// <see cref="System.Runtime.Serialization.DataContractSerializer"/>.
/// </summary>
/// <remarks>
/// Operations are added before the contract is mapped with
/// <see cref="SoapEndpointRouteBuilderExtensions.MapSoapEndpoint"/>; mapping freezes it, as opening a WCF service host
/// freezes its description. A client needs only the name and namespace and may use a contract without operations.
/// </remarks>
public sealed class SoapContract
{
    // In the order they were added, which the WSDL follows as WCF's follows the interface's methods.
    private readonly List<SoapOperation> _operations = [];
    private volatile bool _frozen;

    /// <summary>Creates a contract; the defaults match WCF's (<c>http://tempuri.org/</c>).</summary>
    public SoapContract(string name, string @namespace = "http://tempuri.org/")
    {
        ArgumentNullException.ThrowIfNull(@namespace);
        XmlConvert.VerifyNCName(name);
        Name = name;
        Namespace = @namespace;
    }

    /// <summary>The contract name, the middle segment of every action.</summary>
    public string Name { get; }

    /// <summary>The XML namespace of the request and response wrappers, and the start of every action.</summary>
    public string Namespace { get; }

    /// <summary>
    /// The action WCF gives <paramref name="operation"/> by default: <c>{Namespace}{Name}/{operation}</c>, with a '/'
    /// inserted after a namespace that lacks one and <c>urn:</c> standing in for an empty namespace.
    /// </summary>
    public string ActionFor(string operation)
    {
        XmlConvert.VerifyNCName(operation);
        string prefix = Namespace.Length == 0 ? "urn:"
            : Namespace.EndsWith('/') ? Namespace
            : Namespace + "/";
        return $"{prefix}{Name}/{operation}";
    }

    /// <summary>Adds a synchronous operation, which runs on the request thread unless the endpoint has a synchronization context.</summary>
    public SoapContract AddOperation<TRequest, TResponse>(string operation, Func<TRequest, TResponse> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Add(new SyncSoapOperation<TRequest, TResponse>(operation, ActionFor(operation), Namespace, (request, _) => handler(request)));
    }

    /// <summary>
    /// Adds a synchronous operation that watches the request's abort token, so long work can stop when the client
    /// has gone; it runs where the token-less overload's operations run.
    /// </summary>
    public SoapContract AddOperation<TRequest, TResponse>(string operation, Func<TRequest, CancellationToken, TResponse> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Add(new SyncSoapOperation<TRequest, TResponse>(operation, ActionFor(operation), Namespace, handler));
    }

    /// <summary>Adds a Task-based operation; the token is the request's abort token.</summary>
    public SoapContract AddOperation<TRequest, TResponse>(string operation, Func<TRequest, CancellationToken, Task<TResponse>> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Add(new TaskSoapOperation<TRequest, TResponse>(operation, ActionFor(operation), Namespace, handler));
    }

    /// <summary>Freezes the contract and returns its operations in the order they were added.</summary>
    internal IReadOnlyList<SoapOperation> Freeze()
    {
        lock (_operations)
        {
            _frozen = true;
            return [.. _operations];
        }
    }

    private SoapContract Add(SoapOperation operation)
    {
        lock (_operations)
        {
            if (_frozen)
            {
                throw new InvalidOperationException($"Contract '{Name}' is already mapped to an endpoint; add operations before mapping it.");
            }

            if (_operations.Exists(existing => existing.Name == operation.Name))
            {
                throw new ArgumentException($"Contract '{Name}' already has an operation named '{operation.Name}'.", nameof(operation));
            }

            _operations.Add(operation);
        }

        return this;
    }
}
