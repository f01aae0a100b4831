using Harness.Agreements;
using Harness.Contracts;
using Harness.Contracts.Soap;
using Harness.Rpc.Soap;
using Harness.ServiceOperations;
using Harness.Workloads;

namespace Harness.SoapService;

/// <summary>
/// The SOAP face of <see cref="HarnessOperations"/>. <c>Compute</c> is a synchronous operation, as in a classic
/// WCF service, and stops when the request is aborted; <c>CallThirdParty</c> is Task-based so that the async styles
/// can release the thread, while the blocking styles still complete synchronously on the dispatching thread.
/// </summary>
public sealed class HarnessSoapService(HarnessOperations operations, ILogger<HarnessSoapService> logger)
{
    public SoapContract CreateContract() =>
        new SoapContract(HarnessContract.SoapContractName, HarnessContract.SoapNamespace)
            .AddOperation<ComputeRequest, ComputeResponse>(HarnessContract.Compute, Compute)
            .AddOperation<CallThirdPartyRequest, CallThirdPartyResponse>(HarnessContract.CallThirdParty, CallThirdPartyAsync);

    public ComputeResponse Compute(ComputeRequest request, CancellationToken cancellationToken)
    {
        var result = Map(() => operations.Compute(request.Iterations, cancellationToken));
        return new ComputeResponse { Result = result.Result, ThreadId = result.ThreadId, ElapsedMs = result.Elapsed.TotalMilliseconds };
    }

    public async Task<CallThirdPartyResponse> CallThirdPartyAsync(CallThirdPartyRequest request, CancellationToken cancellationToken)
    {
        ThirdPartyCallResult result;
        try
        {
            result = await operations.CallThirdPartyAsync(request.Fanout, request.DelayMs, request.Style, request.Parallelism, cancellationToken);
        }
        catch (WorkloadArgumentException ex)
        {
            throw new SoapFaultException(SoapFaultCode.Client, ex.Message);
        }
        catch (HttpRequestException ex)
        {
            logger.LogWarning(ex, "CallThirdParty: the third party did not answer");
            throw new SoapFaultException(SoapFaultCode.Server, $"The third party did not answer: {ex.Message}");
        }

        return new CallThirdPartyResponse
        {
            Calls = result.Calls,
            ElapsedMs = result.Elapsed.TotalMilliseconds,
            ThreadId = result.ThreadId,
            DistinctThreads = result.DistinctThreads,
        };
    }

    private static T Map<T>(Func<T> operation)
    {
        try
        {
            return operation();
        }
        catch (WorkloadArgumentException ex)
        {
            throw new SoapFaultException(SoapFaultCode.Client, ex.Message);
        }
    }
}
