using Grpc.Core;
using Grpc.Net.Client;
using Harness.Contracts.Grpc;

namespace Harness.Contracts;

/// <summary>Typed client for the gRPC service over Grpc.Net.Client. Failures surface as <see cref="RpcException"/>.</summary>
public sealed class HarnessGrpcClient : IHarnessClient
{
    private readonly GrpcChannel _channel;
    private readonly HarnessService.HarnessServiceClient _client;

    /// <param name="address">The service's plain-text HTTP/2 address, e.g. <c>http://127.0.0.1:5082</c>.</param>
    public HarnessGrpcClient(Uri address)
    {
        _channel = LoadChannel.For(address);
        _client = new HarnessService.HarnessServiceClient(_channel);
    }

    public string Stack => "grpc";

    public async Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default) =>
        await _client.ComputeAsync(new ComputeRequest { Iterations = iterations }, cancellationToken: cancellationToken);

    public async Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default) =>
        await _client.CallThirdPartyAsync(
            new CallThirdPartyRequest { Fanout = fanout, DelayMs = delayMs, Style = style, Parallelism = parallelism },
            cancellationToken: cancellationToken);

    public void Dispose() => _channel.Dispose();
}
