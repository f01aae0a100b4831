using Harness.Rpc.Grpc;
using Harness.Workloads;

namespace Harness.GrpcService;

/// <summary>Turns workload exceptions into gRPC statuses whose detail says what was wrong.</summary>
public sealed class StatusMappingInterceptor(ILogger<StatusMappingInterceptor> logger) : IServerInterceptor
{
    public async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
        where TRequest : class
        where TResponse : class
    {
        try
        {
            return await continuation(request, context);
        }
        catch (WorkloadArgumentException ex)
        {
            throw new RpcException(GrpcStatusCode.InvalidArgument, ex.Message);
        }
        catch (HttpRequestException ex)
        {
            logger.LogWarning(ex, "{Method}: the third party did not answer", context.Method);
            throw new RpcException(GrpcStatusCode.Unavailable, $"The third party did not answer: {ex.Message}");
        }
        catch (OperationCanceledException) when (context.CancellationToken.IsCancellationRequested)
        {
            throw new RpcException(GrpcStatusCode.Cancelled, "The call was cancelled or its deadline passed.");
        }
        catch (TaskCanceledException ex)
        {
            // HttpClient reports its own timeout as a cancellation the caller did not ask for.
            throw new RpcException(GrpcStatusCode.DeadlineExceeded, $"The third party timed out: {ex.Message}");
        }
    }
}
