using Grpc.Core;

namespace Harness.StarvingService;

/// <summary>Whether <see cref="StarvingCalls.Wait"/> blocks its thread (the default) or awaits.</summary>
public sealed record WaitStyle(bool Blocks);

/// <summary>
/// The one call. Blocking, it waits for a <see cref="Task.Delay(int)"/> with <see cref="Task.Wait()"/>, a sync-over-async
/// wait that holds its ThreadPool thread: under more calls at once than the pool has threads, the runtime adds threads
/// for them (its cooperative-blocking and starvation adjustments). Awaiting, the thread goes back to the pool.
/// </summary>
public sealed class StarvingCalls(WaitStyle style) : Starving.StarvingBase
{
    private const int MaxDelayMs = 5_000;

    public override async Task<WaitReply> Wait(WaitRequest request, ServerCallContext context)
    {
        var delayMs = Math.Clamp(request.DelayMs, 0, MaxDelayMs);
        if (style.Blocks)
        {
            // The point of this service: never write this in one that is not meant to starve.
            Task.Delay(delayMs).Wait();
        }
        else
        {
            await Task.Delay(delayMs);
        }

        return new WaitReply { WaitedMs = delayMs };
    }
}
