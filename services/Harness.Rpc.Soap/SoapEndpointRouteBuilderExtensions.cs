using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Harness.Rpc.Soap;

/// <summary>Maps SOAP endpoints, the counterpart of CoreWCF's <c>UseServiceModel</c> + <c>AddServiceEndpoint</c>.</summary>
public static class SoapEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Serves <paramref name="contract"/> at <paramref name="path"/>: SOAP 1.1 over HTTP, as a BasicHttpBinding endpoint
    /// on CoreWCF would (the HTTP method plays no part; a request without a body is a 400). As in CoreWCF, the path
    /// matches in any letter case, and the endpoint also takes the paths below it, answering a message sent there with
    /// a DestinationUnreachable fault. Mapping freezes the contract.
    /// </summary>
    public static IEndpointConventionBuilder MapSoapEndpoint(
        this IEndpointRouteBuilder endpoints, string path, SoapContract contract, Action<SoapEndpointOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(contract);

        var options = new SoapEndpointOptions();
        configure?.Invoke(options);
        ILogger logger = endpoints.ServiceProvider.GetService<ILoggerFactory>()?.CreateLogger(typeof(SoapEndpointDispatcher).FullName!)
            ?? NullLogger.Instance;
        var address = new SoapEndpointAddress(path);
        var dispatcher = new SoapEndpointDispatcher(address, contract, options, endpoints.ServiceProvider, logger);
        return endpoints.Map(address.RoutePattern, dispatcher.HandleAsync).WithDisplayName($"SOAP {contract.Name} {path}");
    }
}
