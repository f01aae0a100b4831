namespace Harness.LoadTests.Recording.Tests;

public sealed class RunMergerTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Merging_the_runs_of_two_agents_gives_exactly_the_histogram_of_all_their_values()
    {
        const int Seconds = 5;
        var all = new LatencyHistogram[Seconds];
        var allIntended = new LatencyHistogram[Seconds];
        var allFailed = new LatencyHistogram[Seconds];
        var allServer = new LatencyHistogram[Seconds];
        var allQueue = new LatencyHistogram[Seconds];
        var runs = new List<RunData>();
        for (var agent = 0; agent < 2; agent++)
        {
            var runDirectory = _directory.Sub($"agent-{agent}");
            var manifest = TestRuns.Manifest($"agent-{agent}", TestRuns.Series("shared", model: "open"), TestRuns.Series($"only-{agent}")) with
            {
                StartedAt = new DateTimeOffset(2026, 11, 22, 1, 19, agent, TimeSpan.Zero),
                Modes = agent == 0 ? ["iocp"] : ["iocp", "dedicated"],
            };
            var recorder = new RunRecorder(manifest, runDirectory);
            var random = new Random(agent);
            // Agent 1 misses second 0, so the merged second 0 comes from agent 0 alone.
            for (var second = agent; second < Seconds; second++)
            {
                recorder.RecordUsers("shared", second, 10 * (agent + 1));
                recorder.RecordServer("shared", second, new Dictionary<string, double> { ["cpu"] = (agent * 100) + second });
                for (var i = 0; i < 2_000; i++)
                {
                    var latency = TimeSpan.FromMicroseconds(random.Next(1, 10_000_000));
                    var intended = latency + TimeSpan.FromMicroseconds(random.Next(0, 1_000_000));
                    var server = latency / 3;
                    var success = i % 100 != 0;
                    recorder.RecordRequest("shared", TimeSpan.FromSeconds(second + (i / 2_000.0)), latency, intended, success, i % 200 == 0 ? "timeout" : $"agent-{agent}", server);
                    if (success)
                    {
                        (all[second] ??= new LatencyHistogram()).Record(latency);
                        (allIntended[second] ??= new LatencyHistogram()).Record(intended);
                        (allServer[second] ??= new LatencyHistogram()).Record(server);
                        (allQueue[second] ??= new LatencyHistogram()).Record(latency - server);
                    }
                    else
                    {
                        (allFailed[second] ??= new LatencyHistogram()).Record(latency);
                    }
                }
            }

            recorder.EndSeries("shared", 2_000 * (Seconds - agent));

            recorder.RecordUsers($"only-{agent}", 0, 1);
            recorder.RecordEvent(new RunEvent(3 - agent, "note", null, $"from agent {agent}"));
            recorder.Complete();
            runs.Add(RawRunReader.Read(runDirectory));
        }

        // Server samples come from the first agent that has one for the second: agent 1's only where agent 0 has none (second 3).
        runs[1] = WithoutScrape(runs[1], 2);
        runs[0] = WithoutScrape(runs[0], 3);

        var merged = RunMerger.Merge(runs);
        var shared = merged.Timelines["shared"];
        Assert.Equal(Enumerable.Range(0, Seconds), shared.Select(sample => sample.Second));
        foreach (var sample in shared)
        {
            var agents = sample.Second == 0 ? 1 : 2;
            Assert.Equal(all[sample.Second].Encode(), sample.Latency.Encode());
            Assert.Equal(allIntended[sample.Second].Encode(), sample.IntendedLatency!.Encode());
            Assert.Equal(allFailed[sample.Second].Encode(), sample.FailureLatency!.Encode());
            Assert.Equal(allServer[sample.Second].Encode(), sample.ServerTime!.Encode());
            Assert.Equal(allQueue[sample.Second].Encode(), sample.QueueTime!.Encode());
            Assert.Equal(all[sample.Second].ValueAtPercentile(99.9), sample.Latency.ValueAtPercentile(99.9));
            Assert.Equal(agents * 2_000, sample.Requests);
            Assert.Equal(agents * 20, sample.Failures);
            Assert.Equal(agents * 10, sample.StatusCounts["timeout"]);
            Assert.Equal(
                sample.Second == 0 ? new Dictionary<string, long> { ["agent-0"] = 1_980 } : new Dictionary<string, long> { ["agent-0"] = 1_980, ["agent-1"] = 1_980 },
                sample.SuccessCounts);
            Assert.Equal(sample.Second == 0 ? 10 : 30, sample.Users);
            Assert.Equal(sample.Second == 3 ? 103 : sample.Second, sample.Server["cpu"]);
        }

        Assert.Equal(2_000 * (Seconds + Seconds - 1), merged.Manifest.Series[0].TotalRequests);
        Assert.Equal(shared.Sum(s => s.Requests), merged.Manifest.Series[0].TotalRequests);
        Assert.Null(merged.Manifest.Series[1].TotalRequests);
        Assert.Equal(1, merged.Timelines["only-0"].Single().Users);
        Assert.Single(merged.Timelines["only-1"]);
        Assert.Equal(["agent-0", "agent-1"], merged.Manifest.Agents);
        Assert.Equal(["shared", "only-0", "only-1"], merged.Manifest.Series.Select(series => series.Id));
        Assert.Equal(["iocp", "dedicated"], merged.Manifest.Modes);
        Assert.Equal(runs[0].Manifest.StartedAt, merged.Manifest.StartedAt);
        Assert.Equal(runs[0].Manifest.RunId, merged.Manifest.RunId);
        // Agent 1 started a second later: its event at 2 s is at 3 s of the merged run.
        Assert.Equal([(3.0, "from agent 0"), (3.0, "from agent 1")], merged.Events.Where(e => e.Kind == "note" && e.Message.StartsWith("from", StringComparison.Ordinal)).Select(e => (e.AtSeconds, e.Message)));

        // The merged run survives its own files unchanged.
        var mergedDirectory = _directory.Sub("merged");
        RawRunWriter.Write(mergedDirectory, merged);
        var reread = RawRunReader.Read(mergedDirectory, out var warnings);
        Assert.Empty(warnings);
        Assert.Equal(merged.Manifest.Agents, reread.Manifest.Agents);
        Assert.Equal(shared.Select(s => s.Latency.Encode()), reread.Timelines["shared"].Select(s => s.Latency.Encode()));
        Assert.Equal(shared.Select(s => s.QueueTime!.Encode()), reread.Timelines["shared"].Select(s => s.QueueTime!.Encode()));
        Assert.Equal(merged.Manifest.Series, reread.Manifest.Series.Select((s, i) => s with { Parameters = merged.Manifest.Series[i].Parameters }));
        Assert.Equal(merged.Events, reread.Events);

        // A file written before successes were counted by status: the merged second cannot know them all.
        Assert.Null(RunMerger.MergeSecond(1, [shared[1], shared[1] with { SuccessCounts = null }]).SuccessCounts);
    }

    [Fact]
    public void A_merged_second_takes_the_targets_counters_from_the_agent_that_scraped_them_not_an_agents_own_samples()
    {
        // Every agent samples itself (harness_runner_*); only the lead scrapes the target.
        var ownOnly = new SecondSample(0, 10, 0, 0, new Dictionary<string, long>(), new LatencyHistogram(), null,
            new Dictionary<string, double> { ["harness_runner_threads"] = 40 });
        var lead = ownOnly with { Server = new Dictionary<string, double> { ["harness_runner_threads"] = 50, ["process_threads"] = 22 } };

        var merged = RunMerger.MergeSecond(0, [ownOnly, lead]);

        Assert.Equal(22, merged.Server["process_threads"]);
        Assert.Equal(50, merged.Server["harness_runner_threads"]);
        Assert.Equal(40, RunMerger.MergeSecond(0, [ownOnly, ownOnly]).Server["harness_runner_threads"]);
    }

    private static RunData WithoutScrape(RunData run, int second)
    {
        var timeline = run.Timelines["shared"].Select(s => s.Second == second ? s with { Server = new Dictionary<string, double>() } : s).ToList();
        return run with { Timelines = new Dictionary<string, IReadOnlyList<SecondSample>>(run.Timelines) { ["shared"] = timeline } };
    }

    [Fact]
    public void Merging_leaves_the_inputs_unchanged()
    {
        var run = new RunData(
            TestRuns.Manifest("a", TestRuns.Series("s")),
            new Dictionary<string, IReadOnlyList<SecondSample>> { ["s"] = [TestRuns.Sample(0, 10, 20)] },
            []);
        var before = run.Timelines["s"][0].Latency.Encode();

        var merged = RunMerger.Merge([run, run]);

        Assert.Equal(before, run.Timelines["s"][0].Latency.Encode());
        Assert.Equal(4, merged.Timelines["s"][0].Latency.TotalCount);
        Assert.Equal(["a", "a"], merged.Manifest.Agents);
    }

    [Fact]
    public void Series_fields_merge_to_the_longest_warm_up_the_first_ideal_method_and_a_total_only_when_every_agent_has_one()
    {
        RunData Agent(string agent, SeriesInfo series) =>
            new(TestRuns.Manifest(agent, series), new Dictionary<string, IReadOnlyList<SecondSample>> { [series.Id] = [TestRuns.Sample(0, 10)] }, []);
        var s = TestRuns.Series("s") with { Repetition = 1 };

        var merged = RunMerger.Merge(
        [
            Agent("a", s with { WarmUpSeconds = 2, TotalRequests = 1 }),
            Agent("b", s with { WarmUpSeconds = 5, IdealMethod = "stub delay", TotalRequests = 1 }),
        ]).Manifest.Series.Single();
        var partial = RunMerger.Merge([Agent("a", s with { TotalRequests = 1 }), Agent("b", s)]).Manifest.Series.Single();

        Assert.Equal((5.0, "stub delay", 2L), (merged.WarmUpSeconds, merged.IdealMethod, merged.TotalRequests));
        Assert.Null(partial.TotalRequests);
    }

    [Fact]
    public void Series_that_differ_under_one_id_runs_of_two_formats_or_an_empty_list_are_refused()
    {
        var first = new RunData(TestRuns.Manifest("a", TestRuns.Series("s")), new Dictionary<string, IReadOnlyList<SecondSample>>(), []);
        var second = first with { Manifest = TestRuns.Manifest("b", TestRuns.Series("s") with { Mode = "dedicated" }) };
        var repeated = first with { Manifest = TestRuns.Manifest("b", TestRuns.Series("s") with { Repetition = 2 }) };
        var older = first with { Manifest = TestRuns.Manifest("b", TestRuns.Series("s")) with { FormatVersion = 2 } };

        Assert.Contains("Series 's'", Assert.Throws<ArgumentException>(() => RunMerger.Merge([first, second])).Message);
        Assert.Contains("repetition 2", Assert.Throws<ArgumentException>(() => RunMerger.Merge([first, repeated])).Message);
        Assert.Contains("format version 3 but run", Assert.Throws<ArgumentException>(() => RunMerger.Merge([first, older])).Message);
        Assert.Throws<ArgumentException>(() => RunMerger.Merge([]));
    }
}
