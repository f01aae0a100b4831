using System.Diagnostics;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Harness.Metrics;

namespace Harness.Scheduling.AspNetCore;

/// <summary>
/// Runs each unary handler on the mode's scheduler and reports the server's time of the call in the
/// <see cref="ServerTimeTrailer.Name"/> trailer.
/// </summary>
/// <remarks>
/// <para>In the iocp and custompool modes the handler moves from the Kestrel/ThreadPool thread that received it onto
/// the mode's scheduler, with the scheduler's SynchronizationContext current so its continuations stay there too. In
/// the threadpool mode it stays on the ThreadPool thread Kestrel dispatched it on: that is the mode.</para>
/// <para>The server time runs from when the handler starts on the scheduler's thread to when its reply is ready. It
/// leaves out the wait in the scheduler's queue, as our operations' own <c>elapsedMs</c> does (measured inside the
/// handler, HarnessOperations): the queue is what the harness reports as queue-and-transport time (latency minus
/// server time), the cost the modes differ in. A failed call has no trailer.</para>
/// <para>Register it for the service's own gRPC services alone (<c>AddHarnessScheduling&lt;TService&gt;()</c>), never
/// as a global interceptor: grpc.health.v1 must answer from Kestrel's thread, not from a queue behind the workload (a
/// Check waited 6-19 s behind six long Computes in iocp mode), and a Check is no scheduler item. Streaming methods
/// pass through untouched.</para>
/// </remarks>
public sealed class SchedulingInterceptor(IWorkScheduler scheduler) : Interceptor
{
    /// <inheritdoc/>
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation) =>
        scheduler.Mode == SchedulingMode.ThreadPool
            ? TimedAsync(request, context, continuation)
            : scheduler.RunAsync(() => TimedAsync(request, context, continuation));

    private static async Task<TResponse> TimedAsync<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
        where TRequest : class
        where TResponse : class
    {
        var started = Stopwatch.GetTimestamp();
        var reply = await continuation(request, context);
        context.ResponseTrailers.Add(ServerTimeTrailer.Name, ServerTimeTrailer.Format(Stopwatch.GetElapsedTime(started).TotalMilliseconds));
        return reply;
    }
}
