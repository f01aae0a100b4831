using Harness.Metrics;

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
    /// <exception cref="ArgumentException">
    /// No run, runs of different format versions, or one series id stands for different stacks, operations, modes,
    /// models or repetitions.
    /// </exception>
    public static RunData Merge(IReadOnlyList<RunData> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count == 0)
        {
            throw new ArgumentException("Nothing to merge: no run.", nameof(runs));
        }

        var first = runs[0].Manifest;
        if (runs.FirstOrDefault(run => run.Manifest.FormatVersion != first.FormatVersion) is { } other)
        {
            // Format 2 latency holds failures too, format 3 does not: the sum would mean neither.
            throw new ArgumentException(
                $"Run {first.RunId} is of format version {first.FormatVersion} but run {other.Manifest.RunId} of version {other.Manifest.FormatVersion}; "
                + "merge runs of one format version.",
                nameof(runs));
        }

        var series = new List<SeriesInfo>();
        var modes = new List<string>();
        var agents = new List<string>();
        foreach (var run in runs)
        {
            foreach (var info in run.Manifest.Series)
            {
                var index = series.FindIndex(s => s.Id == info.Id);
                if (index < 0)
                {
                    series.Add(info);
                    continue;
                }

                var known = series[index];
                if ((known.Stack, known.Operation, known.Mode, known.Model, known.Repetition) != (info.Stack, info.Operation, info.Mode, info.Model, info.Repetition))
                {
                    throw new ArgumentException(
                        $"Series '{info.Id}' is {Shape(known)} in run {first.RunId} but {Shape(info)} in run {run.Manifest.RunId}.",
                        nameof(runs));
                }

                series[index] = MergeInfo(known, info);
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
            Series = series,
            Modes = modes,
            Agents = agents,
        };
        return new RunData(manifest, timelines, events);
    }

    private static string Shape(SeriesInfo s) => $"{s.Stack}/{s.Operation}/{s.Mode}/{s.Model}/repetition {s.Repetition}";

    /// <summary>
    /// One series as several agents recorded it: the longest warm-up (no agent's warm-up is measured), the first
    /// ideal method given, and the sum of the total requests when every agent recorded one (else unknown).
    /// </summary>
    private static SeriesInfo MergeInfo(SeriesInfo known, SeriesInfo other) => known with
    {
        WarmUpSeconds = Math.Max(known.WarmUpSeconds, other.WarmUpSeconds),
        IdealMethod = known.IdealMethod ?? other.IdealMethod,
        TotalRequests = known.TotalRequests + other.TotalRequests,
    };

    /// <summary>One second of one series from several runs, in run order.</summary>
    public static SecondSample MergeSecond(int second, IReadOnlyList<SecondSample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var statusCounts = new Dictionary<string, long>(StringComparer.Ordinal);
        // Successes by status are summed only when every agent recorded them; a partial sum would undercount.
        var successCounts = samples.All(s => s.SuccessCounts is not null) ? new Dictionary<string, long>(StringComparer.Ordinal) : null;
        var latency = new LatencyHistogram();
        LatencyHistogram? intended = null, failed = null, serverTime = null, queueTime = null;
        StreamSample? stream = null;
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

            if (successCounts is not null)
            {
                foreach (var (status, count) in sample.SuccessCounts!)
                {
                    successCounts[status] = successCounts.GetValueOrDefault(status) + count;
                }
            }

            latency.Add(sample.Latency);
            AddPresent(ref intended, sample.IntendedLatency);
            AddPresent(ref failed, sample.FailureLatency);
            AddPresent(ref serverTime, sample.ServerTime);
            AddPresent(ref queueTime, sample.QueueTime);
            stream = AddStream(stream, sample.Stream);
        }

        // The target's counters come from the agent that scraped them (the lead); every agent samples itself
        // (harness_runner_*), so a server map with only those keys is not the target's.
        var server = (samples.FirstOrDefault(sample => MetricNames.HasTargetValues(sample.Server))
            ?? samples.FirstOrDefault(sample => sample.Server.Count > 0))?.Server ?? new Dictionary<string, double>();
        latency.Compact();
        intended?.Compact();
        failed?.Compact();
        serverTime?.Compact();
        queueTime?.Compact();
        stream?.FirstMessage.Compact();
        stream?.MessageGap.Compact();
        return new SecondSample(second, users, requests, failures, statusCounts, latency, intended, server, failed, serverTime, queueTime, successCounts, stream);
    }

    // The sum of the streams' figures present; null when none is.
    private static StreamSample? AddStream(StreamSample? sum, StreamSample? stream)
    {
        if (stream is null)
        {
            return sum;
        }

        sum ??= new StreamSample(0, 0, 0, new LatencyHistogram(), new LatencyHistogram());
        sum.FirstMessage.Add(stream.FirstMessage);
        sum.MessageGap.Add(stream.MessageGap);
        return sum with { Calls = sum.Calls + stream.Calls, MessagesSent = sum.MessagesSent + stream.MessagesSent, MessagesReceived = sum.MessagesReceived + stream.MessagesReceived };
    }

    // The sum of the histograms present; null when none is.
    private static void AddPresent(ref LatencyHistogram? sum, LatencyHistogram? histogram)
    {
        if (histogram is not null)
        {
            (sum ??= new LatencyHistogram()).Add(histogram);
        }
    }
}
