using Harness.Agreements;
using Harness.Metrics;
using Harness.Workloads;

namespace Harness.ServiceOperations;

/// <summary>
/// The bodies of the two operations, shared by the SOAP and gRPC services so both do exactly the same work.
/// Arguments are validated before the operation is counted as executing.
/// </summary>
public sealed class HarnessOperations
{
    /// <summary>The operations as the counters (and the <c>operation</c> label on /metrics) name them.</summary>
    public const string ComputeName = MetricNames.ComputeOperation;
    public const string CallThirdPartyName = MetricNames.CallThirdPartyOperation;

    public static readonly string[] Names = [ComputeName, CallThirdPartyName];

    private readonly WorkloadLimits _limits;
    private readonly ComputeWorkOptions _computeWork;
    private readonly ThirdPartyWorkload _thirdParty;
    private readonly OperationTracker _tracker;

    public HarnessOperations(WorkloadLimits limits, ComputeWorkOptions computeWork, ThirdPartyWorkload thirdParty, OperationTracker tracker)
    {
        _limits = limits;
        _computeWork = computeWork;
        _thirdParty = thirdParty;
        _tracker = tracker;
    }

    /// <param name="iterations">How many times the loop runs, times <c>ComputeWork__Factor</c> (1.0 unless a benchmark
    /// asks for more); the limit applies to the requested count.</param>
    /// <param name="cancellationToken">The call's own token (the gRPC call's, or the HTTP request's abort token), so a
    /// call the client has abandoned (a deadline, a cancellation, a closed connection) stops and frees its core.</param>
    /// <exception cref="WorkloadArgumentException"><paramref name="iterations"/> is outside the limit.</exception>
    /// <exception cref="OperationCanceledException">The call was abandoned; it counts as failed.</exception>
    public ComputeResult Compute(int iterations, CancellationToken cancellationToken)
    {
        _limits.ValidateIterations(iterations);
        var scope = _tracker.Begin(ComputeName);
        try
        {
            return CpuWorkload.Run(_computeWork.Scale(iterations), cancellationToken);
        }
        catch
        {
            scope.Fail();
            throw;
        }
        finally
        {
            scope.Dispose();
        }
    }

    /// <summary>Thread-holding styles complete synchronously on the calling thread; the others release it.</summary>
    /// <exception cref="WorkloadArgumentException">An argument is outside its limit or the style is unknown.</exception>
    public async ValueTask<ThirdPartyCallResult> CallThirdPartyAsync(
        int fanout, int delayMs, string? style, int parallelism, CancellationToken cancellationToken)
    {
        var request = new ThirdPartyCallRequest(fanout, delayMs, CallStyles.Parse(style), parallelism);
        _limits.Validate(request);
        var scope = _tracker.Begin(CallThirdPartyName);
        try
        {
            return await _thirdParty.ExecuteAsync(request, cancellationToken);
        }
        catch
        {
            scope.Fail();
            throw;
        }
        finally
        {
            scope.Dispose();
        }
    }
}
