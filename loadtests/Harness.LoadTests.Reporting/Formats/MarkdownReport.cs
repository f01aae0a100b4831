using System.Globalization;
using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The report's tables in Markdown (summary.md): the counterpart of NBomber's Markdown report.</summary>
internal static class MarkdownReport
{
    /// <param name="analysis">The run analysed; its reader's warnings are listed under the run's heading.</param>
    public static string Render(RunAnalysis analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        var md = new StringBuilder();
        AppendHeader(md, analysis.Manifest, analysis.Warnings);
        md.AppendLine();
        md.AppendLine(NoiseFloorSentence.Of(analysis.NoiseFloor, analysis.Family));
        md.AppendLine();
        md.AppendLine(VerdictText.Family(analysis.Family));
        if (VerdictText.Design(analysis) is { } design)
        {
            md.AppendLine();
            md.AppendLine(design);
        }
        if (analysis.Settlement is { } settlement)
        {
            md.AppendLine();
            md.AppendLine(SettlementText.Headline(settlement));
            md.AppendLine();
            foreach (var line in SettlementText.Lines(settlement))
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {line}");
            }
        }
        RuntimeSection.AppendMarkdownVerdicts(md, analysis.Summaries);
        if (analysis.Thresholds.Count > 0)
        {
            AppendThresholds(md, analysis.Thresholds);
        }

        StackText.AppendMarkdown(md, analysis.Stacks);
        foreach (var group in analysis.Groups)
        {
            AppendGroupTables(md, group, analysis.Family);
            AppendGroupNotes(md, group);
            AppendGroupMeasures(md, group);
            if (analysis.Soak is { } soak)
            {
                MarkdownSoak.Append(md, group, soak);
            }
        }

        RunnerSection.AppendMarkdown(md, analysis.Summaries);
        AppendEvents(md, analysis.Run.Events);
        return md.ToString();
    }

    /// <summary>The run's heading, the reader's warnings, what ran where, and how to read the figures.</summary>
    private static void AppendHeader(StringBuilder md, RunManifest m, IReadOnlyList<string> warnings)
    {
        md.AppendLine(CultureInfo.InvariantCulture, $"# Run {m.RunId}");
        md.AppendLine();
        if (warnings.Count > 0)
        {
            md.AppendLine(CultureInfo.InvariantCulture, $"**Warnings: the raw files were damaged or incomplete ({warnings.Count}).** Figures cover what could be read.");
            md.AppendLine();
            foreach (var warning in warnings)
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {warning}");
            }

            md.AppendLine();
        }

        md.AppendLine(CultureInfo.InvariantCulture,
            $"Profile `{m.Profile}`, time scale {Format.Plain(m.TimeScale)}, started {m.StartedAt.ToString("yyyy-MM-dd HH:mm:ss zzz", CultureInfo.InvariantCulture)}; "
            + $"modes {string.Join(", ", m.Modes)}; {m.Machine.ProcessorCount} cores, {m.Machine.OperatingSystem}, .NET {m.Machine.RuntimeVersion}, harness {m.Machine.HarnessVersion}.");
        md.AppendLine();
        md.AppendLine(CultureInfo.InvariantCulture, $"Command: `{m.CommandLine}`");
        md.AppendLine();
        md.AppendLine("Latency in ms is the service time of the successful requests of a series (merged histograms); failed requests have their own "
            + "count, rate and latency; req/s = requests ÷ active seconds; ratios are against the group's baseline mode. docs/report.md explains every column.");
        if (!m.SeparatesFailures)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture,
                $"This run is in raw format {m.FormatVersion}, which does not keep failed requests apart: its latency includes the failed requests.");
        }
    }

    private static void AppendThresholds(StringBuilder md, IReadOnlyList<ThresholdResult> thresholds)
    {
        md.AppendLine();
        md.AppendLine("## Thresholds");
        md.AppendLine();
        md.Append(ThresholdText.ToMarkdown(thresholds));
        md.AppendLine();
        md.AppendLine(ThresholdText.Tally(thresholds));
    }

    /// <summary>A group's heading and tables: the summary, the ratios to the baseline, the modes over their repetitions.</summary>
    private static void AppendGroupTables(StringBuilder md, ModeComparisonGroup group, VerdictFamilySize family)
    {
        md.AppendLine();
        md.AppendLine(CultureInfo.InvariantCulture, $"## {group.Stack} · {group.Operation}");
        md.AppendLine();
        md.Append(SummaryTable(group).ToMarkdown());
        md.AppendLine();
        md.Append(RatioTable(group).ToMarkdown());
        if (VerdictText.Detectable(group, family) is { } detectable)
        {
            md.AppendLine();
            md.AppendLine(detectable);
        }

        if (group.HasRepetitions)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture,
                $"Modes over their repetitions: the median, with the min–max of the repetitions (from {Spread.IntervalFrom} repetitions on, the distribution-free "
                + $"confidence interval of the median); A/A = largest ÷ smallest repetition − 1. A ratio's interval comes from the two modes compared, "
                + $"paired by round where both ran in every round (docs/report.md, \"Verdicts\").");
            md.AppendLine();
            md.Append(ModesTable(group).ToMarkdown());
        }
    }

    /// <summary>What a reader must know to trust a group's figures: the targets' CPU, the knee of a ramp, the statuses.</summary>
    private static void AppendGroupNotes(StringBuilder md, ModeComparisonGroup group)
    {
        md.AppendLine();
        md.AppendLine("Targets' CPU (processors the runtime used, cgroup CPU limit): " + string.Join(" · ", group.Rows.Select(r => $"{r.Label} {FigureText.Cpu(r.Summary.Cpu)}")));
        if (FigureText.CpuMismatch(group) is { } mismatch)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture, $"**Warning:** {mismatch}");
        }

        if (group.Rows.Where(r => r.Summary.Knee.IsRamp).ToList() is { Count: > 0 } ramps)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture,
                $"Knee (the lowest load from which, {Knee.DefaultSustain} judged levels in a row, the mean latency is more than {Format.Plain(Knee.DefaultMargin * 100)} % above the ideal "
                + $"or the throughput more than {Format.Plain(Knee.DefaultMargin * 100)} % below the lowest level's scaled with the load):");
            md.AppendLine();
            foreach (var row in ramps)
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {row.Label}: {Threshold.DescribeKnee(row.Summary.Knee, row.Summary.IsOpenModel)}");
            }
        }

        foreach (var (title, read) in new (string, Func<SeriesSummary, IReadOnlyList<KeyValuePair<string, long>>>)[]
            { ("Successes by status", s => s.SuccessesByStatus), ("Failures by status", s => s.FailuresByStatus) })
        {
            var counted = group.Rows.Where(r => read(r.Summary).Count > 0).ToList();
            if (counted.Count > 0)
            {
                md.AppendLine();
                md.AppendLine(CultureInfo.InvariantCulture, $"{title}:");
                md.AppendLine();
                foreach (var row in counted)
                {
                    md.AppendLine(CultureInfo.InvariantCulture, $"- {row.Label}: {Format.ByStatus(read(row.Summary))}");
                }
            }
        }
    }

    /// <summary>A group's server coverage, server time and recoveries after outages.</summary>
    private static void AppendGroupMeasures(StringBuilder md, ModeComparisonGroup group)
    {
        var coverage = group.Rows.Select(r => (r.Label, Note: FigureText.ServerCoverage(r.Summary))).Where(c => c.Note is not null).ToList();
        if (coverage.Count > 0)
        {
            md.AppendLine();
            foreach (var (label, note) in coverage)
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {label}: {note}");
            }
        }

        RuntimeSection.AppendMarkdownGroup(md, group);
        StreamSection.AppendMarkdownGroup(md, group);
        if (group.Rows.Any(r => r.Summary.ServerTime is not null))
        {
            md.AppendLine();
            md.AppendLine("Server execution time of the successful requests whose reply carried it, and their latency minus it (queueing and transport):");
            md.AppendLine();
            md.Append(ServerTimeTable(group).ToMarkdown());
        }

        if (RecoveryTable(group) is { RowCount: > 0 } recoveries)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture,
                $"Time to recover after each outage or fault window (back: {Recovery.HoldSeconds} s in a row at ≥ {Recovery.ThroughputShare * 100:0} % of the "
                + $"successful req/s of the {Recovery.BaselineSeconds} s before the window, p99 ≤ {Recovery.P99Factor:0.0#} × theirs):");
            md.AppendLine();
            md.Append(recoveries.ToMarkdown());
        }
    }

    private static void AppendEvents(StringBuilder md, IReadOnlyList<RunEvent> runEvents)
    {
        if (runEvents.Count == 0)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine("## Events");
        md.AppendLine();
        var events = new TextTable(">run s", "kind", "series", "message");
        foreach (var ev in runEvents.OrderBy(e => e.AtSeconds))
        {
            events.Add(Format.Seconds(ev.AtSeconds), ev.Kind, ev.SeriesId ?? "whole run", ev.Message);
        }

        md.Append(events.ToMarkdown());
    }

    /// <summary>Per mode: the client's and the server's figures (what the HTML summary table shows).</summary>
    internal static TextTable SummaryTable(ModeComparisonGroup group)
    {
        var open = group.Rows.Any(r => r.Summary.IntendedLatency is not null);
        List<string> headers =
        [
            "mode", ">requests", ">req/s", ">mean ms", ">p50 ms", ">p90 ms", ">p99 ms", ">p99.9 ms", ">p99.99 ms", ">max ms", ">errors", ">error rate",
            ">failed mean ms", ">failed p99 ms",
        ];
        if (open)
        {
            headers.AddRange([">intended mean ms", ">intended p99 ms"]);
        }

        var runtime = group.Rows.Any(r => r.Summary.Runtime is not null);
        headers.AddRange([">peak threads", ">peak busy", ">peak queue", .. runtime ? [">runtime's peak threads", ">runtime's peak queue"] : Array.Empty<string>(), ">ctx sw/req", ">CPU % of 1 core", ">peak MB"]);
        var table = new TextTable([.. headers]);
        foreach (var row in group.Rows)
        {
            var s = row.Summary;
            var l = s.Latency;
            string Latency(double value) => l.Count == 0 ? Format.Missing : Format.Number(value);
            List<string> cells =
            [
                row.Label, Format.Integer(s.Requests), Format.Number(s.RequestsPerSecond),
                Latency(l.MeanMs), Latency(l.P50Ms), Latency(l.P90Ms), Latency(l.P99Ms), Latency(l.P999Ms), Latency(l.P9999Ms), Latency(l.MaxMs),
                Format.Integer(s.Failures), Format.Rate(s.Requests == 0 ? null : s.ErrorRate),
                Format.Number(s.FailureLatency is { Count: > 0 } f ? f.MeanMs : null), Format.Number(s.FailureLatency is { Count: > 0 } g ? g.P99Ms : null),
            ];
            if (open)
            {
                cells.Add(s.IntendedLatency is { Count: > 0 } i ? Format.Number(i.MeanMs) : Format.Missing);
                cells.Add(s.IntendedLatency is { Count: > 0 } j ? Format.Number(j.P99Ms) : Format.Missing);
            }

            cells.AddRange(
            [
                Format.Integer(s.PeakThreads), Format.Integer(s.PeakBusyThreads), Format.Integer(s.PeakQueueLength),
                .. runtime ? [Format.Integer(s.Runtime?.PeakThreads), Format.Integer(s.Runtime?.PeakQueueLength)] : Array.Empty<string>(),
                Format.Number(s.ContextSwitchesPerRequest), Format.Number(s.MeanCpuPercent), Format.Integer(s.PeakWorkingSetMb),
            ]);
            table.Add([.. cells]);
        }

        return table;
    }

    /// <summary>Per series: where its successful requests' time went, server execution against queueing and transport.</summary>
    internal static TextTable ServerTimeTable(ModeComparisonGroup group)
    {
        var table = new TextTable(
            "mode", ">client mean ms", ">server mean ms", ">server p50 ms", ">server p99 ms", ">queue mean ms", ">queue p50 ms", ">queue p99 ms", ">requests timed");
        foreach (var row in group.Rows)
        {
            var s = row.Summary;
            var (server, queue) = (s.ServerTime, s.QueueTime);
            table.Add(
                row.Label, s.Latency.Count == 0 ? Format.Missing : Format.Number(s.Latency.MeanMs),
                Format.Number(server?.MeanMs), Format.Number(server?.P50Ms), Format.Number(server?.P99Ms),
                Format.Number(queue?.MeanMs), Format.Number(queue?.P50Ms), Format.Number(queue?.P99Ms), Format.Integer(server?.Count));
        }

        return table;
    }

    /// <summary>Per series and outage or fault window: when it was back (see <see cref="Recovery"/>).</summary>
    internal static TextTable RecoveryTable(ModeComparisonGroup group)
    {
        var table = new TextTable("mode", "window", ">from s", ">to s", ">before: req/s", ">before: p99 ms", ">back at s", ">time to recover s", "outcome");
        foreach (var row in group.Rows)
        {
            foreach (var r in row.Summary.Recoveries)
            {
                table.Add(
                    row.Label, r.Window.Kind, Format.Seconds(r.Window.From), r.Window.To is { } to ? Format.Seconds(to) : Format.Missing,
                    Format.Number(r.BaselineRequestsPerSecond), Format.Number(r.BaselineP99Ms), Format.Integer(r.RecoveredAtSecond),
                    Format.Number(r.SecondsToRecover), r.Outcome);
            }
        }

        return table;
    }

    /// <summary>
    /// Per mode: each figure ÷ the baseline mode's. A repeated mode's ratio is of the medians, with its spread in
    /// brackets, and the verdict of mean, p99 and req/s in words (docs/report.md, "Verdicts").
    /// </summary>
    internal static TextTable RatioTable(ModeComparisonGroup group)
    {
        var open = group.Rows.Any(r => r.Summary.IntendedLatency is not null);
        ModeFigure[] figures =
        [
            ModeFigure.Mean, ModeFigure.P50, ModeFigure.P90, ModeFigure.P99, ModeFigure.P999, ModeFigure.P9999, ModeFigure.Max, ModeFigure.RequestsPerSecond,
            ModeFigure.ErrorRate, ModeFigure.PeakThreads, ModeFigure.ContextSwitchesPerRequest,
            .. open ? [ModeFigure.IntendedMean, ModeFigure.IntendedP99] : Array.Empty<ModeFigure>(),
        ];
        var table = new TextTable([$"÷ {group.Baseline}", .. figures.Select(f => ">" + ModeFigures.Name(f))]);
        foreach (var mode in group.Modes)
        {
            table.Add([mode.Label, .. figures.Select(f => RatioText(mode.RatioOf(f)))]);
        }

        return table;
    }

    /// <summary>Per repeated mode: the median of its repetitions with its bounds, and the run's own A/A spread.</summary>
    internal static TextTable ModesTable(ModeComparisonGroup group)
    {
        ModeFigure[] figures = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.RequestsPerSecond];
        var table = new TextTable(
        [
            "mode", ">runs", "bounds", .. figures.SelectMany(f => new[] { $">{ModeFigures.Name(f)}{(f == ModeFigure.RequestsPerSecond ? string.Empty : " ms")}", $">A/A {ModeFigures.Name(f)}" }),
        ]);
        foreach (var mode in group.Modes)
        {
            table.Add(
            [
                mode.Label, mode.Rows.Count.ToString(CultureInfo.InvariantCulture), FigureText.Bounds(mode.Of(ModeFigure.Mean)),
                .. figures.SelectMany(f => new[] { FigureText.Spread(mode.Of(f)), mode.Of(f) is { Count: > 1 } s ? Format.Rate(s.AaSpread) : Format.Missing }),
            ]);
        }

        return table;
    }

    private static string RatioText(ModeRatio ratio) => FigureText.RatioWithVerdict(ratio);
}
