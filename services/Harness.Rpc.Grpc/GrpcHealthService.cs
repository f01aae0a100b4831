using System.Collections.Concurrent;
using Grpc.Health.V1;

namespace Harness.Rpc.Grpc;

/// <summary>
/// The serving status behind <c>grpc.health.v1.Health/Check</c>, like <c>Grpc.HealthCheck.HealthServiceImpl</c>.
/// </summary>
/// <remarks>
/// The empty service name stands for the whole server and starts as <c>SERVING</c>, as the Grpc.AspNetCore
/// health integration reports a running, healthy application. Checking a service with no status ends the call
/// with NOT_FOUND, as <c>HealthServiceImpl</c> does.
/// </remarks>
public sealed class GrpcHealthService
{
    internal const string ServiceName = "grpc.health.v1.Health";

    private readonly ConcurrentDictionary<string, HealthCheckResponse.Types.ServingStatus> _statuses = new(StringComparer.Ordinal);

    public GrpcHealthService()
    {
        _statuses[string.Empty] = HealthCheckResponse.Types.ServingStatus.Serving;
    }

    /// <summary>Sets the status reported for <paramref name="service"/>; <c>""</c> is the whole server.</summary>
    public void SetStatus(string service, HealthCheckResponse.Types.ServingStatus status)
    {
        ArgumentNullException.ThrowIfNull(service);
        _statuses[service] = status;
    }

    /// <summary>Forgets <paramref name="service"/>, so checking it ends with NOT_FOUND.</summary>
    public void ClearStatus(string service)
    {
        ArgumentNullException.ThrowIfNull(service);
        _statuses.TryRemove(service, out _);
    }

    internal Task<HealthCheckResponse> Check(HealthCheckRequest request, ServerCallContext context)
    {
        if (!_statuses.TryGetValue(request.Service, out var status))
        {
            throw new RpcException(GrpcStatusCode.NotFound, string.Empty);
        }

        return Task.FromResult(new HealthCheckResponse { Status = status });
    }
}
