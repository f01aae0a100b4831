namespace Harness.Rpc.Grpc;

/// <summary>A unary method's handler, or the rest of the interceptor pipeline around it.</summary>
/// <remarks>The same shape as <c>Grpc.Core.UnaryServerMethod&lt;TRequest, TResponse&gt;</c>.</remarks>
public delegate Task<TResponse> UnaryServerMethod<TRequest, TResponse>(TRequest request, ServerCallContext context);
