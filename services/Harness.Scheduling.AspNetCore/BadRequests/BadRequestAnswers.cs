using Grpc.AspNetCore.Server;
using Grpc.AspNetCore.Server.Model;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace Harness.Scheduling.AspNetCore.BadRequests;

/// <summary>
/// A bad request costs only itself. One the server cannot read is the client's fault: it gets a status that says so
/// (<c>INTERNAL</c>, <c>RESOURCE_EXHAUSTED</c>, or <c>CANCELLED</c> when the client stopped sending it) with a short
/// message, and is logged at Information by Grpc.AspNetCore, never as the Error of a failing service with its stack
/// trace. One whose headers Grpc.AspNetCore repeats in its answer gets them cut, so the answer cannot outgrow what a
/// client accepts and cost the connection.
/// </summary>
internal static class BadRequestAnswers
{
    /// <summary>
    /// For <typeparamref name="TService"/>: a body that does not parse (<see cref="ParseFailureMethodProvider{TService}"/>),
    /// or does not decompress (<see cref="DecompressionCheckingProvider"/>); for every gRPC request of the process, a
    /// message header that cannot be read or a body the client stopped sending, and a header too long to repeat
    /// (<see cref="GrpcRequestChecks"/>, which runs before routing, so before the service is known).
    /// </summary>
    public static void Add<TService>(IServiceCollection services)
        where TService : class
    {
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IStartupFilter, GrpcRequestChecks>());

        // Post-configured, because Grpc.AspNetCore copies the app-wide providers into the service's options each time
        // AddServiceOptions<TService> is called.
        services.PostConfigure<GrpcServiceOptions<TService>>(
            options => options.CompressionProviders = DecompressionCheckingProvider.Wrap(options.CompressionProviders));

        // A service without generated BindService code (code-first) keeps Grpc.AspNetCore's binding and its statuses.
        if (ParseFailureMethodProvider<TService>.FindBindService(typeof(TService)) is var (bindService, serviceBase))
        {
            // Registered as the enumerable itself: the container resolves an exact registration before composing one
            // from every IServiceMethodProvider<>, so TService is bound by this provider alone and its methods do not
            // appear twice. Every other service keeps Grpc.AspNetCore's binder.
            IServiceMethodProvider<TService>[] providers = [new ParseFailureMethodProvider<TService>(bindService, serviceBase)];
            services.AddSingleton<IEnumerable<IServiceMethodProvider<TService>>>(providers);
        }
    }
}
