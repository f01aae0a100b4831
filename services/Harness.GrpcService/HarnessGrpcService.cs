using Grpc.Core;
using Harness.Contracts.Grpc;
using Harness.ServiceOperations;

namespace Harness.GrpcService;

/// <summary>The gRPC face of <see cref="HarnessOperations"/>, on the base class generated from harness.proto.</summary>
public sealed class HarnessGrpcService(HarnessOperations operations, ILogger<HarnessGrpcService> logger) : HarnessService.HarnessServiceBase
{
    public override Task<ComputeReply> Compute(ComputeRequest request, ServerCallContext context)
    {
        try
        {
            var result = operations.Compute(request.Iterations, context.CancellationToken);
            return Task.FromResult(new ComputeReply
            {
                Result = result.Result,
                ThreadId = result.ThreadId,
                ElapsedMs = result.Elapsed.TotalMilliseconds,
            });
        }
        catch (Exception ex) when (GrpcStatusMapping.Map(ex, context) is { } status)
        {
            throw Logged(status, ex, context);
        }
    }

    public override async Task<CallThirdPartyReply> CallThirdParty(CallThirdPartyRequest request, ServerCallContext context)
    {
        try
        {
            var result = await operations.CallThirdPartyAsync(
                request.Fanout, request.DelayMs, request.Style, request.Parallelism, context.CancellationToken);
            return new CallThirdPartyReply
            {
                Calls = result.Calls,
                ElapsedMs = result.Elapsed.TotalMilliseconds,
                ThreadId = result.ThreadId,
                DistinctThreads = result.DistinctThreads,
            };
        }
        catch (Exception ex) when (GrpcStatusMapping.Map(ex, context) is { } status)
        {
            throw Logged(status, ex, context);
        }
    }

    private RpcException Logged(RpcException status, Exception exception, ServerCallContext context)
    {
        if (exception is HttpRequestException)
        {
            logger.LogWarning(exception, "{Method}: the third party did not answer", context.Method);
        }

        return status;
    }
}
