using System.Diagnostics;
using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Running;

/// <summary>
/// Reads a target's /metrics once a second into the series' timeline. A read that fails records nothing for
/// that second. A refused or broken connection marks the outage as a run event once, and its end once, so the
/// report shows when a target died; a read that is merely slow is not an outage, and a target that answers 4xx
/// (it has no /metrics) gets one note and no more reads. The process's threads also go to the progress tracker,
/// for <c>--live</c>. A service's .NET runtime figures exported by another library (OpenTelemetry, prometheus-net)
/// are recorded under the contract's names too (<see cref="RuntimeMetricAliases"/>).
/// </summary>
/// <param name="mayHaveNone">
/// The address is only the harness's guess for a service it did not write (a <c>--call</c> target without
/// <c>metrics=</c>): a first read that fails is "no server metrics", said once, not an outage.
/// </param>
internal sealed class ServerScraper(HttpClient http, GuardedRecorder recorder, double seriesOffsetSeconds, ProgressTracker? progress = null, bool mayHaveNone = false)
{
    /// <summary>
    /// The largest /metrics body read (16 MiB; a service's exposition is a few KB to a few MB). HttpClient's own default
    /// is 2 GiB: a target that streams a body without end made every scrape buffer what it could read in its second
    /// (a runner of 1.1 GB after a 4 s series), and one that announces 1 GiB was waited on until the read's timeout.
    /// </summary>
    public const int MaxBodySize = 16 * 1024 * 1024;

    private static readonly TimeSpan ReadTimeout = TimeSpan.FromMilliseconds(900);

    /// <summary>
    /// The client a run reads /metrics with (each series' scraper and the ideal's quiet wait): its body bounded by
    /// <see cref="MaxBodySize"/>, its head by HttpClient's 64 KiB. A body past the bound fails the read, as a target
    /// that does not answer.
    /// </summary>
    public static HttpClient NewHttpClient() => new() { MaxResponseContentBufferSize = MaxBodySize };

    public async Task RunAsync(string seriesId, Uri metricsAddress, CancellationToken cancellationToken)
    {
        var url = new Uri(metricsAddress, "/metrics");
        var clock = Stopwatch.StartNew();
        var down = false;
        var answered = false;
        for (var second = 0; !cancellationToken.IsCancellationRequested; second++)
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                timeout.CancelAfter(ReadTimeout);
                var text = await http.GetStringAsync(url, timeout.Token);
                // Another library's spelling of a runtime figure is recorded under the name the report reads.
                var samples = RuntimeMetricAliases.Apply(PrometheusTextParser.Parse(text));
                answered = true;
                recorder.RecordServer(seriesId, second, samples);
                if (progress is not null && samples.TryGetValue(MetricNames.ProcessThreads, out var threads))
                {
                    progress.RecordServerThreads(threads);
                }

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
                // Too slow to answer within the second (a starved ThreadPool does this where /metrics shares it):
                // the second has no counters, but the target is not down, so no event.
            }
            catch (HttpRequestException ex) when (ex.StatusCode is { } status && (int)status is >= 400 and < 500)
            {
                // The target answered, just not with metrics (any CoreWCF service has no /metrics): no server
                // samples, said once; its requests are served and measured as usual, so this is no outage.
                recorder.RecordEvent(new RunEvent(seriesOffsetSeconds + clock.Elapsed.TotalSeconds, "note", seriesId,
                    $"{url} answered {(int)status} {status}: no server metrics for this series; its requests are measured as usual"));
                return;
            }
            catch (HttpRequestException ex) when (mayHaveNone && !answered)
            {
                recorder.RecordEvent(new RunEvent(seriesOffsetSeconds + clock.Elapsed.TotalSeconds, "note", seriesId,
                    $"{url} did not answer ({ex.Message}): no server metrics for this series; give the target metrics=URL to read them elsewhere"));
                return;
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
