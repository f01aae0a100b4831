namespace Harness.LoadTests.Recording;

/// <summary>
/// Merges the runs of several agents that loaded the same targets at the same time into one run
/// (docs/raw-format.md, "Merging"). Latency merges exactly: a merged second's histogram is the histogram of every
/// agent's requests in that second.
/// </summary>
public static class RunMerger
{
    /// <summary>
    /// Series with the same id are merged second by second (seconds since each series' start): users, requests,
    /// failures and status counts are summed, histograms added. Server samples are taken from the first run (in
    /// list order) that has a non-empty one for that second: agents scrape the same target, so summing would count
    /// it several times. The manifest is the first run's, with every run's agents, and the union of series and modes
    /// in order of appearance. Events of every run are kept, their times moved to the first run's start, in time order.
    /// </summary>
    /// <exception cref="ArgumentException">No run, or one series id stands for different stacks, operations, modes or models.</exception>
    public static RunData Merge(IReadOnlyList<RunData> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count == 0)
        {
            throw new ArgumentException("Nothing to merge: no run.", nameof(runs));
        }

        var first = runs[0].Manifest;
        var series = new List<SeriesInfo>();
        var modes = new List<string>();
        var agents = new List<string>();
        foreach (var run in runs)
        {
            foreach (var info in run.Manifest.Series)
            {
                var known = series.Find(s => s.Id == info.Id);
                if (known is null)
                {
                    series.Add(info);
                }
                else if ((known.Stack, known.Operation, known.Mode, known.Model) != (info.Stack, info.Operation, info.Mode, info.Model))
                {
                    throw new ArgumentException(
                        $"Series '{info.Id}' is {known.Stack}/{known.Operation}/{known.Mode}/{known.Model} in run {first.RunId} "
                        + $"but {info.Stack}/{info.Operation}/{info.Mode}/{info.Model} in run {run.Manifest.RunId}.",
                        nameof(runs));
                }
            }

            modes.AddRange(run.Manifest.Modes.Where(mode => !modes.Contains(mode)));
            agents.AddRange(run.Manifest.Agents);
        }

        var timelines = new Dictionary<string, IReadOnlyList<SecondSample>>(StringComparer.Ordinal);
        foreach (var info in series)
        {
            timelines[info.Id] = runs
                .SelectMany(run => run.Timelines.GetValueOrDefault(info.Id) ?? [])
                .GroupBy(sample => sample.Second)
                .OrderBy(group => group.Key)
                .Select(group => MergeSecond(group.Key, [.. group]))
                .ToList();
        }

        var events = runs
            .SelectMany(run => run.Events.Select(e => e with { AtSeconds = e.AtSeconds + (run.Manifest.StartedAt - first.StartedAt).TotalSeconds }))
            .OrderBy(e => e.AtSeconds)
            .ToList();

        var manifest = first with
        {
            FormatVersion = RunManifest.CurrentFormatVersion,
            Series = series,
            Modes = modes,
            Agents = agents,
        };
        return new RunData(manifest, timelines, events);
    }

    /// <summary>One second of one series from several runs, in run order.</summary>
    public static SecondSample MergeSecond(int second, IReadOnlyList<SecondSample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var statusCounts = new Dictionary<string, long>(StringComparer.Ordinal);
        var latency = new LatencyHistogram();
        LatencyHistogram? intended = null;
        var (users, requests, failures) = (0, 0L, 0L);
        foreach (var sample in samples)
        {
            users += sample.Users;
            requests += sample.Requests;
            failures += sample.Failures;
            foreach (var (status, count) in sample.StatusCounts)
            {
                statusCounts[status] = statusCounts.GetValueOrDefault(status) + count;
            }

            latency.Add(sample.Latency);
            if (sample.IntendedLatency is { } intendedLatency)
            {
                (intended ??= new LatencyHistogram()).Add(intendedLatency);
            }
        }

        var server = samples.FirstOrDefault(sample => sample.Server.Count > 0)?.Server ?? new Dictionary<string, double>();
        latency.Compact();
        intended?.Compact();
        return new SecondSample(second, users, requests, failures, statusCounts, latency, intended, server);
    }
}
