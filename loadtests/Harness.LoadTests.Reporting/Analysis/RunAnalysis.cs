using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// A run analysed once, for every format to write (as BenchmarkDotNet hands one summary to every exporter): each
/// series' summary (with its knee, recoveries and soak trend), the modes compared per stack × operation with their
/// spreads, the two stacks compared per operation × mode, the threshold verdicts and the soak's. A new comparison of a run's series belongs here, computed once, so
/// that the HTML page, summary.md and the console only write it.
/// </summary>
/// <param name="Run">The raw run, for what the formats show as recorded: the manifest, the per-second timelines, the events.</param>
/// <param name="Summaries">Every series after its warm-up, in the manifest's order.</param>
/// <param name="Groups">The modes compared, one group per stack × operation.</param>
/// <param name="Thresholds">The verdicts of the thresholds given, the soak defaults among them; empty when none were judged.</param>
/// <param name="Soak">The soak verdicts when the run is judged as a soak (<see cref="SoakDefaults.Verdicts"/>), else null.</param>
/// <param name="Warnings">What the raw files' reader tolerated (a cut-off last line, a stray series file).</param>
/// <param name="NoiseFloor">The run's noise floor from its repetitions, and the differences beyond it.</param>
/// <param name="Settlement">For a run repeated until settled (<c>--repeat auto</c>), its comparisons' verdicts; else null.</param>
internal sealed record RunAnalysis(
    RunData Run,
    IReadOnlyList<SeriesSummary> Summaries,
    IReadOnlyList<ModeComparisonGroup> Groups,
    IReadOnlyList<ThresholdResult> Thresholds,
    IReadOnlyList<ThresholdResult>? Soak,
    IReadOnlyList<string> Warnings,
    RunNoiseFloor NoiseFloor,
    RepetitionSettlement? Settlement)
{
    public RunManifest Manifest => Run.Manifest;

    /// <summary>gRPC against SOAP, one pair per operation × mode that ran on both stacks (<see cref="StackComparison"/>).</summary>
    public IReadOnlyList<StackPair> Stacks { get; init; } = [];

    /// <summary>The family of verdicts the report judged together (<see cref="ReportVerdicts"/>).</summary>
    public VerdictFamilySize Family { get; init; } = new(0, ModeRatio.Tolerance);

    /// <summary>True when a threshold failed: exit code 1. A check not judged fails nothing.</summary>
    public bool AnyFailed => ThresholdEvaluator.AnyFailed(Thresholds);

    /// <param name="run">The run, as <c>RawRunReader.Read</c> gave it.</param>
    /// <param name="thresholds">
    /// The thresholds to judge, with the soak defaults when the run is a soak (<see cref="ThresholdEvaluator.Evaluate(RunData, IEnumerable{Threshold})"/>);
    /// null judges none, and a soak run still gets its soak verdicts from the defaults.
    /// </param>
    /// <param name="warnings">What the reader tolerated (<c>RawRunReader.Read(dir, out warnings)</c>).</param>
    public static RunAnalysis Of(RunData run, IEnumerable<Threshold>? thresholds = null, IReadOnlyList<string>? warnings = null)
    {
        ArgumentNullException.ThrowIfNull(run);
        var summaries = SeriesSummary.ForRun(run);
        var results = thresholds is null ? [] : ThresholdEvaluator.Evaluate(summaries, SoakDefaults.With(run.Manifest, thresholds));
        var groups = ModeComparison.Unjudged(run.Manifest, summaries);
        var (stacks, family) = ReportVerdicts.Judge(groups, StackComparison.Build(run.Manifest, summaries));
        return new RunAnalysis(
            run, summaries, groups, results, SoakDefaults.Verdicts(run.Manifest, summaries, results), warnings ?? [], RunNoiseFloor.Of(groups),
            RepetitionSettlement.Of(run.Manifest, summaries))
        {
            Stacks = stacks,
            Family = family,
        };
    }
}
