using System.Diagnostics;
using Harness.LoadTests.Diagnostics;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Running;

/// <summary>
/// Beside a series whose target has a .NET runtime to attach to (<c>pid=</c>, <c>diag=</c>, the services the runner
/// starts): opens a <see cref="RuntimeSession"/> and, once a second, merges what it knows into the series' server
/// values, under the target's own /metrics (<see cref="GuardedRecorder.FillServer"/>: a name both give keeps the
/// target's value). Whatever goes wrong (no runtime there, the process exits, another tool holds its meter) is said in
/// one line, a <c>note</c> event and the console, at most once per series, and the series goes on.
/// </summary>
internal static class RuntimeSampler
{
    /// <summary>Seconds attached without a meter value before the run says the target has no <c>System.Runtime</c> meter.</summary>
    private const int MeterGraceSeconds = 5;

    /// <param name="say">The console's line for the note (the run event is written here).</param>
    public static async Task RunAsync(
        RuntimeEndpoint endpoint, GuardedRecorder recorder, string seriesId, Stopwatch runClock, Action<string> say, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        var noted = false;
        void Note(string message)
        {
            if (!noted)
            {
                noted = true;
                say(message);
                recorder.RecordEvent(new RunEvent(runClock.Elapsed.TotalSeconds, "note", seriesId, message));
            }
        }

        RuntimeSession session;
        try
        {
            session = await RuntimeSession.StartAsync(endpoint, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return;
        }
        catch (RuntimeAttachException ex)
        {
            Note($"{ex.Message}: this series has no runtime figures; its load goes on");
            return;
        }

        await using (session)
        {
            for (var second = (int)clock.Elapsed.TotalSeconds; !cancellationToken.IsCancellationRequested; second++)
            {
                if (session.Completion.IsCompleted)
                {
                    Note($"the runtime session on {endpoint} ended at second {second} of the series (the process exited or closed it): no runtime figures after it");
                    return;
                }

                // Adjustments count as they arrive; each of the meter's readings (once a second, on the target's own
                // timer) goes to the second in which the target took it, which it reaches here up to a second or more
                // later: one the recorder would drop as late is left out.
                recorder.FillServer(seriesId, second, session.Figures.AdjustmentSnapshot());
                foreach (var (at, values) in session.Figures.TakeCollections())
                {
                    var taken = Math.Min(SecondOf(at, clock), second);
                    if (taken >= Math.Max(0, second - RunRecorder.DefaultLateWindowSeconds))
                    {
                        recorder.FillServer(seriesId, taken, values);
                    }
                }

                if (session.Problem is { } problem)
                {
                    Note($"{endpoint}: {problem}; some runtime figures may be missing");
                }
                else if (second >= MeterGraceSeconds && !session.Figures.HasMeterValues)
                {
                    Note($"{endpoint} published no System.Runtime meter values in {MeterGraceSeconds} s (a runtime older than .NET 9 has none): only its ThreadPool adjustments are recorded");
                }

                if (!await SecondTicks.WaitForNextAsync(clock, second, cancellationToken))
                {
                    return;
                }
            }
        }
    }

    /// <summary>The second of <paramref name="clock"/> (started with the series) in which the wall-clock moment <paramref name="utc"/> fell.</summary>
    private static int SecondOf(DateTime utc, Stopwatch clock) => (int)Math.Floor((utc - (DateTime.UtcNow - clock.Elapsed)).TotalSeconds);
}
