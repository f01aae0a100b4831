using System.Diagnostics;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Running;

/// <summary>
/// Reads a target's /metrics once a second into the series' timeline. A read that fails records nothing for
/// that second. A refused or broken connection marks the outage as a run event once, and its end once, so the
/// report shows when a target died; a read that is merely slow is not an outage.
/// </summary>
internal sealed class ServerScraper(HttpClient http, GuardedRecorder recorder, double seriesOffsetSeconds)
{
    public async Task RunAsync(string seriesId, Uri metricsAddress, CancellationToken cancellationToken)
    {
        var url = new Uri(metricsAddress, "/metrics");
        var clock = Stopwatch.StartNew();
        var down = false;
        for (var second = 0; !cancellationToken.IsCancellationRequested; second++)
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                timeout.CancelAfter(TimeSpan.FromMilliseconds(900));
                var text = await http.GetStringAsync(url, timeout.Token);
                recorder.RecordServer(seriesId, second, PrometheusTextParser.Parse(text));
                if (down)
                {
                    down = false;
                    recorder.RecordEvent(new RunEvent(seriesOffsetSeconds + clock.Elapsed.TotalSeconds, "target-up", seriesId, $"{url} answers again"));
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                return;
            }
            catch (TaskCanceledException)
            {
                // Too slow to answer within the second (a starved ThreadPool does this): the second has no
                // counters, but the target is not down, so no event.
            }
            catch (HttpRequestException ex)
            {
                if (!down)
                {
                    down = true;
                    recorder.RecordEvent(new RunEvent(seriesOffsetSeconds + clock.Elapsed.TotalSeconds, "target-down", seriesId, $"{url} did not answer: {ex.Message}"));
                }
            }

            if (!await SecondTicks.WaitForNextAsync(clock, second, cancellationToken))
            {
                return;
            }
        }
    }
}
