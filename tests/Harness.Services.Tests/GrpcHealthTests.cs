using Grpc.Health.V1;
using Grpc.Net.Client;

namespace Harness.Services.Tests;

/// <summary>The gRPC service answers the standard grpc.health.v1 check, as Kubernetes' gRPC probe asks it.</summary>
public sealed class GrpcHealthTests
{
    [Theory]
    [InlineData("threadpool")]
    [InlineData("iocp")]
    [InlineData("custompool")]
    public async Task HealthCheck_OnTheGrpcPort_IsServing(string mode)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, mode);
        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress);
        var health = new Health.HealthClient(channel);

        // Act
        var reply = await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10));

        // Assert
        Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, reply.Status);
    }
}
