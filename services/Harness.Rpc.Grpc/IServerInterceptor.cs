namespace Harness.Rpc.Grpc;

/// <summary>
/// Code that runs around every unary handler, like an override of
/// <c>Grpc.Core.Interceptors.Interceptor.UnaryServerHandler</c>.
/// </summary>
/// <remarks>
/// Every <see cref="IServerInterceptor"/> registered in the service collection takes part, in registration
/// order: the first registered is the outermost. They are resolved once, when a method is mapped, so they
/// are shared by all calls and must be thread-safe; register them as singletons.
/// </remarks>
public interface IServerInterceptor
{
    /// <summary>
    /// Handles one call. Call <paramref name="continuation"/> to run the rest of the pipeline and the handler,
    /// or throw an <see cref="RpcException"/> to end the call with a status.
    /// </summary>
    Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
        where TRequest : class
        where TResponse : class;
}
