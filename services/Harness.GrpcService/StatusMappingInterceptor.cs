using Grpc.Core;
using Grpc.Core.Interceptors;
using Harness.Workloads;

namespace Harness.GrpcService;

/// <summary>
/// Turns workload exceptions into gRPC statuses whose detail says what was wrong; without it Grpc.AspNetCore
/// answers every handler exception with <c>UNKNOWN</c> and a generic message.
/// </summary>
public sealed class StatusMappingInterceptor(ILogger<StatusMappingInterceptor> logger) : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(request, context);
        }
        catch (WorkloadArgumentException ex)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, ex.Message));
        }
        catch (HttpRequestException ex)
        {
            logger.LogWarning(ex, "{Method}: the third party did not answer", context.Method);
            throw new RpcException(new Status(StatusCode.Unavailable, $"The third party did not answer: {ex.Message}"));
        }
        catch (OperationCanceledException) when (context.CancellationToken.IsCancellationRequested)
        {
            throw new RpcException(new Status(StatusCode.Cancelled, "The call was cancelled or its deadline passed."));
        }
        catch (TaskCanceledException ex)
        {
            // HttpClient reports its own timeout as a cancellation the caller did not ask for.
            throw new RpcException(new Status(StatusCode.DeadlineExceeded, $"The third party timed out: {ex.Message}"));
        }
    }
}
