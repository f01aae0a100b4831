using Google.Protobuf;
using Grpc.Health.V1;
using Harness.Rpc.Grpc.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace Harness.Rpc.Grpc;

/// <summary>Maps unary gRPC methods onto endpoint routing; the counterpart of <c>MapGrpcService&lt;T&gt;</c>.</summary>
public static class GrpcEndpointRouteBuilderExtensions
{
    private const string LoggerCategory = "Harness.Rpc.Grpc.Server";
    private static readonly string[] PostMethod = [HttpMethods.Post];

    /// <summary>
    /// Serves <c>/{serviceFullName}/{methodName}</c> as a unary gRPC method. The first method of a service also
    /// maps a catch-all that answers UNIMPLEMENTED ("Method is unimplemented.") for the service's other
    /// methods, and the application's first method one that answers "Service is unimplemented." for unknown
    /// services; both match only POSTs with a gRPC content-type, as grpc-dotnet's do.
    /// </summary>
    /// <param name="serviceFullName">The package-qualified service name, such as <c>greet.Greeter</c>.</param>
    /// <param name="methodName">The method name, such as <c>SayHello</c>.</param>
    /// <param name="handler">Runs inside every registered <see cref="IServerInterceptor"/>.</param>
    public static IEndpointConventionBuilder MapGrpcUnary<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        string serviceFullName,
        string methodName,
        UnaryServerMethod<TRequest, TResponse> handler)
        where TRequest : class, IMessage<TRequest>, new()
        where TResponse : class, IMessage<TResponse>, new()
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ValidateName(serviceFullName, nameof(serviceFullName));
        ValidateName(methodName, nameof(methodName));
        ArgumentNullException.ThrowIfNull(handler);

        var services = endpoints.ServiceProvider;
        var registry = services.GetService<GrpcMethodRegistry>()
            ?? throw new InvalidOperationException(
                "Unable to find the required services. Add them by calling 'IServiceCollection.AddGrpcWire' in the application startup code.");
        var options = services.GetRequiredService<IOptions<GrpcServerOptions>>().Value;
        var logger = (services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance).CreateLogger(LoggerCategory);
        var interceptors = services.GetServices<IServerInterceptor>().ToArray();

        var fullMethodName = "/" + serviceFullName + "/" + methodName;
        var (firstMethod, newService) = registry.AddMethod(serviceFullName, fullMethodName);

        var callHandler = new UnaryServerCallHandler<TRequest, TResponse>(fullMethodName, BuildPipeline(handler, interceptors), options, logger);
        RequestDelegate requestDelegate = callHandler.HandleCallAsync;
        var builder = endpoints.MapMethods(fullMethodName, PostMethod, requestDelegate).WithDisplayName("gRPC - " + fullMethodName);

        if (firstMethod)
        {
            MapUnimplemented(endpoints, "{unimplementedService}/{unimplementedMethod}", "gRPC - Unimplemented service", "Service is unimplemented.", logger);
        }

        if (newService)
        {
            MapUnimplemented(endpoints, serviceFullName + "/{unimplementedMethod}", "gRPC - Unimplemented method for " + serviceFullName, "Method is unimplemented.", logger);
        }

        return builder;
    }

    /// <summary>
    /// Serves <c>grpc.health.v1.Health/Check</c> from the <see cref="GrpcHealthService"/> singleton; the
    /// counterpart of <c>MapGrpcService&lt;HealthServiceImpl&gt;</c> without the streaming Watch method.
    /// </summary>
    public static IEndpointConventionBuilder MapGrpcHealth(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);

        var health = endpoints.ServiceProvider.GetService<GrpcHealthService>()
            ?? throw new InvalidOperationException(
                "Unable to find the required services. Add them by calling 'IServiceCollection.AddGrpcWire' in the application startup code.");
        return endpoints.MapGrpcUnary<HealthCheckRequest, HealthCheckResponse>(GrpcHealthService.ServiceName, "Check", health.Check);
    }

    private static void ValidateName(string name, string paramName)
    {
        ArgumentException.ThrowIfNullOrEmpty(name, paramName);
        if (name.AsSpan().IndexOfAny("/{}") >= 0)
        {
            throw new ArgumentException("A gRPC service or method name cannot contain '/', '{' or '}'.", paramName);
        }
    }

    // Built once per method, so a call pays one delegate invocation per interceptor and nothing else.
    private static UnaryServerMethod<TRequest, TResponse> BuildPipeline<TRequest, TResponse>(
        UnaryServerMethod<TRequest, TResponse> handler,
        IServerInterceptor[] interceptors)
        where TRequest : class
        where TResponse : class
    {
        var next = handler;
        for (var i = interceptors.Length - 1; i >= 0; i--)
        {
            var interceptor = interceptors[i];
            var continuation = next;
            next = (request, context) => interceptor.UnaryServerHandler(request, context, continuation);
        }

        return next;
    }

    private static void MapUnimplemented(IEndpointRouteBuilder endpoints, string pattern, string displayName, string detail, ILogger logger)
    {
        var routePattern = RoutePatternFactory.Parse(
            pattern,
            defaults: null,
            parameterPolicies: new RouteValueDictionary { ["unimplementedMethod"] = GrpcUnimplementedConstraint.Instance });

        // No HTTP method metadata: that would turn other verbs into 405s; the constraint checks for POST instead.
        endpoints.Map(routePattern, httpContext =>
        {
            GrpcServerLog.Unimplemented(logger, httpContext.Request.Path.Value);
            httpContext.Response.ContentType = GrpcProtocol.ContentType;
            GrpcProtocol.SetStatus(httpContext.Response, GrpcStatusCode.Unimplemented, detail);
            return Task.CompletedTask;
        }).WithDisplayName(displayName);
    }
}
