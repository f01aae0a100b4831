using Harness.Rpc.Grpc;
using Harness.Scheduling;

namespace Harness.GrpcService;

/// <summary>
/// Moves each handler from the Kestrel/ThreadPool thread that received it onto the mode's scheduler, with the
/// scheduler's SynchronizationContext current so the handler's continuations stay there too.
/// Registered only for modes other than <see cref="SchedulingMode.ThreadPool"/>, where handlers run where Kestrel dispatches them.
/// </summary>
public sealed class SchedulingInterceptor(IWorkScheduler scheduler) : IServerInterceptor
{
    public Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
        where TRequest : class
        where TResponse : class =>
        scheduler.RunAsync(() => continuation(request, context));
}
