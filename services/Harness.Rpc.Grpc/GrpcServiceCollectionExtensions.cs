using Harness.Rpc.Grpc.Internal;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace Harness.Rpc.Grpc;

/// <summary>Registers the services <see cref="GrpcEndpointRouteBuilderExtensions"/> needs.</summary>
public static class GrpcServiceCollectionExtensions
{
    /// <summary>
    /// Adds the gRPC wire services: <see cref="GrpcServerOptions"/>, the <see cref="GrpcHealthService"/> singleton and
    /// routing. The counterpart of <c>AddGrpc</c>; interceptors are every <see cref="IServerInterceptor"/> in the
    /// collection, run in registration order with the first registered outermost.
    /// </summary>
    public static IServiceCollection AddGrpcWire(this IServiceCollection services, Action<GrpcServerOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);

        services.AddRouting();
        services.AddOptions<GrpcServerOptions>();
        if (configure is not null)
        {
            services.Configure(configure);
        }

        services.TryAddSingleton<GrpcMethodRegistry>();
        services.TryAddSingleton<GrpcHealthService>();
        return services;
    }
}
