namespace Harness.LoadTests.Running;

/// <summary>One series of a run: a stack and an operation against one mode's targets.</summary>
/// <param name="Index">Its place in the run, from 0, for the progress line.</param>
internal sealed record PlannedSeries(int Index, string Stack, string Operation, string Mode)
{
    /// <summary>The series id of the raw files: <c>{stack}-{operation}-{mode}</c>.</summary>
    public string Id => $"{Stack}-{Operation}-{Mode}";
}

/// <summary>The series that run while one mode's services are up: they start before the first and stop after the last.</summary>
internal sealed record ModeRun(string Mode, IReadOnlyList<PlannedSeries> Series);

/// <summary>The order of a run: each mode in turn, and under it every stack × operation.</summary>
internal static class RunPlan
{
    public static IReadOnlyList<ModeRun> Create(IReadOnlyList<string> modes, IReadOnlyList<string> stacks, IReadOnlyList<string> operations)
    {
        var runs = new List<ModeRun>();
        var index = 0;
        foreach (var mode in modes)
        {
            var series = new List<PlannedSeries>();
            foreach (var stack in stacks)
            {
                foreach (var operation in operations)
                {
                    series.Add(new PlannedSeries(index++, stack, operation, mode));
                }
            }

            runs.Add(new ModeRun(mode, series));
        }

        return runs;
    }
}
