namespace Harness.Agreements;

/// <summary>The <c>Workloads</c> configuration section: the largest request a service accepts.</summary>
public sealed class WorkloadLimits
{
    public const string SectionName = "Workloads";

    /// <summary>Upper bound for <c>iterations</c> (env <c>Workloads__MaxIterations</c>). About 15 ns each on a 2020s core.</summary>
    public int MaxIterations { get; set; } = 2_000_000_000;

    /// <summary>Upper bound for <c>fanout</c>, the third-party calls one request makes (env <c>Workloads__MaxFanout</c>).</summary>
    public int MaxFanout { get; set; } = 64;

    /// <summary>Upper bound for <c>delayMs</c> (env <c>Workloads__MaxDelayMs</c>).</summary>
    public int MaxDelayMs { get; set; } = 60_000;

    public void ValidateIterations(int iterations)
    {
        if (iterations < 1 || iterations > MaxIterations)
        {
            throw new WorkloadArgumentException(
                $"iterations must be between 1 and {MaxIterations} (Workloads__MaxIterations); got {iterations}.");
        }
    }

    public void Validate(ThirdPartyCallRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.Fanout < 1 || request.Fanout > MaxFanout)
        {
            throw new WorkloadArgumentException(
                $"fanout must be between 1 and {MaxFanout} (Workloads__MaxFanout); got {request.Fanout}.");
        }

        if (request.DelayMs < 0 || request.DelayMs > MaxDelayMs)
        {
            throw new WorkloadArgumentException(
                $"delayMs must be between 0 and {MaxDelayMs} (Workloads__MaxDelayMs); got {request.DelayMs}.");
        }

        if (request.Parallelism < 0 || request.Parallelism > MaxFanout)
        {
            throw new WorkloadArgumentException(
                $"parallelism must be between 0 (= fanout) and {MaxFanout} (Workloads__MaxFanout); got {request.Parallelism}.");
        }
    }
}
