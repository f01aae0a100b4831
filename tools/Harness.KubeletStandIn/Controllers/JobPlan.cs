namespace Harness.KubeletStandIn.Controllers;

/// <summary>
/// The Job controller's bookkeeping, without Docker: which completion to start next, how many may run at once,
/// when the Job is complete and when its failures exceed <c>backoffLimit</c>.
/// <list type="bullet">
/// <item>Indexed: completions 0..N-1 each need one pod that succeeds; a failed index is started again (same index).</item>
/// <item>NonIndexed: N successful pods, whichever; the slots here only count them.</item>
/// <item>completions unset: one success completes the Job (parallelism capped to it, a simplification of the
/// work-queue form); parallelism unset: 1; never more pods at once than completions left.</item>
/// <item>backoffLimit (default 6): the Job fails when more pods than that have failed.</item>
/// </list>
/// </summary>
internal sealed class JobPlan
{
    private readonly HashSet<int> _succeeded = [];
    private readonly HashSet<int> _active = [];

    public JobPlan(int? completions, int? parallelism, bool indexed, int? backoffLimit)
    {
        Completions = Math.Max(1, completions ?? 1);
        Parallelism = Math.Max(0, Math.Min(parallelism ?? 1, Completions));
        Indexed = indexed;
        BackoffLimit = Math.Max(0, backoffLimit ?? 6);
    }

    public int Completions { get; }

    public int Parallelism { get; }

    public bool Indexed { get; }

    public int BackoffLimit { get; }

    public int Failed { get; private set; }

    public int Succeeded => _succeeded.Count;

    public int Active => _active.Count;

    public bool Complete => _succeeded.Count >= Completions;

    public bool BackoffLimitExceeded => Failed > BackoffLimit;

    /// <summary>The next completion index to start (NonIndexed: a slot number), or null when none may start now.</summary>
    public int? Next()
    {
        if (Complete || BackoffLimitExceeded || _active.Count >= Parallelism)
        {
            return null;
        }

        for (var index = 0; index < Completions; index++)
        {
            if (!_succeeded.Contains(index) && !_active.Contains(index))
            {
                return index;
            }
        }

        return null;
    }

    public void Started(int index) => _active.Add(index);

    public void Succeed(int index)
    {
        _active.Remove(index);
        _succeeded.Add(index);
    }

    public void Fail(int index)
    {
        _active.Remove(index);
        Failed++;
    }

    /// <summary>The Job controller's delay before a failed pod's replacement: 10 s, 20 s, 40 s... up to 6 minutes.</summary>
    public TimeSpan RetryDelay => Failed == 0 ? TimeSpan.Zero : TimeSpan.FromSeconds(Math.Min(360, 10 * Math.Pow(2, Failed - 1)));

    public string Describe() => $"{Active} active, {Succeeded}/{Completions} succeeded, {Failed} failed";
}
