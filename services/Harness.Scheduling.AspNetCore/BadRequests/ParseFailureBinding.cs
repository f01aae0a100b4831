using System.Reflection;
using Grpc.AspNetCore.Server.Model;
using Grpc.Core;
using Microsoft.AspNetCore.Routing;

namespace Harness.Scheduling.AspNetCore.BadRequests;

/// <summary>
/// Binds a service's generated methods as Grpc.AspNetCore's own binder does (its <c>BinderServiceMethodProvider</c> and
/// <c>ProviderServiceBinder</c>: the generated <c>BindService</c>, the override on the service type as the invoker, the
/// type's and the method's attributes as endpoint metadata), with one change: each method's request deserializer
/// answers a body that does not parse as the request message with <c>INTERNAL</c>.
/// </summary>
/// <remarks>
/// Grpc.AspNetCore parses the request before any interceptor runs and reports a deserializer's exception like a
/// handler's: <c>UNKNOWN</c> "Exception was thrown by handler." and an Error log line with a stack trace. An
/// <see cref="RpcException"/> from the deserializer is instead answered with its own status and logged at
/// Information. gRPC's own table of library statuses gives <c>INTERNAL</c> for "Error parsing request proto"
/// (grpc/grpc, doc/statuscodes.md).
/// </remarks>
internal sealed class ParseFailureMethodProvider<TService>(MethodInfo bindService, Type serviceBase) : IServiceMethodProvider<TService>
    where TService : class
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<TService> context) =>
        bindService.Invoke(null, [new Binder(context, serviceBase), null]);

    /// <summary>The generated <c>BindService(ServiceBinderBase, TServiceBase)</c> of <paramref name="serviceType"/>, or null (not generated code).</summary>
    public static (MethodInfo BindService, Type ServiceBase)? FindBindService(Type serviceType)
    {
        for (Type? type = serviceType; type is not null; type = type.BaseType)
        {
            if (type.GetCustomAttribute<BindServiceMethodAttribute>(inherit: false) is { } bind)
            {
                MethodInfo? method = bind.BindType.GetMethod(
                    bind.BindMethodName, BindingFlags.Public | BindingFlags.Static, [typeof(ServiceBinderBase), type]);
                return method is null ? null : (method, type);
            }
        }

        return null;
    }

    private sealed class Binder(ServiceMethodProviderContext<TService> context, Type serviceBase) : ServiceBinderBase
    {
        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Invoker<UnaryServerMethod<TService, TRequest, TResponse>>(method.Name, typeof(TRequest), typeof(ServerCallContext));
            context.AddUnaryMethod(Guarded(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Invoker<ClientStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(ServerCallContext));
            context.AddClientStreamingMethod(Guarded(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Invoker<ServerStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(TRequest), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddServerStreamingMethod(Guarded(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Invoker<DuplexStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddDuplexStreamingMethod(Guarded(method), metadata, invoker);
        }

        private static Method<TRequest, TResponse> Guarded<TRequest, TResponse>(Method<TRequest, TResponse> method)
            where TRequest : class
            where TResponse : class
        {
            Func<DeserializationContext, TRequest> parse = method.RequestMarshaller.ContextualDeserializer;
            // Short: the parser's own words stay in the status's debug exception, which Grpc.AspNetCore logs.
            string message = $"The request to {method.FullName} is not a valid {typeof(TRequest).Name} message.";
            var request = new Marshaller<TRequest>(
                method.RequestMarshaller.ContextualSerializer,
                payload =>
                {
                    try
                    {
                        return parse(payload);
                    }
                    catch (Exception e) when (e is not OperationCanceledException)
                    {
                        // The deserializer is a function of the bytes alone, so whatever it throws is the sender's fault.
                        throw new RpcException(new Status(StatusCode.Internal, message, e));
                    }
                });
            return new Method<TRequest, TResponse>(method.Type, method.ServiceName, method.Name, request, method.ResponseMarshaller);
        }

        private (TDelegate Invoker, List<object> Metadata) Invoker<TDelegate>(string name, params Type[] parameters)
            where TDelegate : Delegate
        {
            MethodInfo handler = Override(name, parameters)
                ?? throw new InvalidOperationException($"Could not find '{name}' on {typeof(TService)}.");
            var metadata = new List<object>();
            // The type's attributes first, so the method's win, as in Grpc.AspNetCore.
            metadata.AddRange(typeof(TService).GetCustomAttributes(inherit: true));
            metadata.AddRange(handler.GetCustomAttributes(inherit: true));
            metadata.Add(new HttpMethodMetadata(["POST"], acceptCorsPreflight: true));
            return ((TDelegate)Delegate.CreateDelegate(typeof(TDelegate), handler), metadata);
        }

        /// <summary>The public override of the generated base's method, skipping a method of the same name that hides it.</summary>
        private MethodInfo? Override(string name, Type[] parameters)
        {
            for (Type? type = typeof(TService); type is not null; type = type.BaseType)
            {
                MethodInfo? method = type.GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters);
                if (method is null)
                {
                    return null;
                }

                if (method.IsVirtual && method.GetBaseDefinition().DeclaringType == serviceBase)
                {
                    return method;
                }
            }

            return null;
        }
    }
}
