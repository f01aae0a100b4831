using Grpc.Core;
using Grpc.Core.Interceptors;
using Harness.Scheduling;

namespace Harness.GrpcService;

/// <summary>
/// Moves each handler from the Kestrel/ThreadPool thread that received it onto the mode's scheduler, with the
/// scheduler's SynchronizationContext current so the handler's continuations stay there too.
/// Registered on <see cref="HarnessGrpcService"/> alone (grpc.health.v1 stays on Kestrel's thread, so no probe queues
/// behind the workload) and only for modes other than <see cref="SchedulingMode.ThreadPool"/>, where handlers run where Kestrel dispatches them.
/// </summary>
public sealed class SchedulingInterceptor(IWorkScheduler scheduler) : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation) =>
        scheduler.RunAsync(() => continuation(request, context));
}
