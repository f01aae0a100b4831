using Harness.Contracts.Grpc;
using Harness.Rpc.Grpc;

namespace Harness.Contracts;

/// <summary>Typed client for the gRPC service. Failures surface as <see cref="RpcException"/>.</summary>
public sealed class HarnessGrpcClient : IHarnessClient
{
    private readonly GrpcUnaryClient _client;

    public HarnessGrpcClient(Uri address, GrpcClientOptions? options = null) =>
        _client = new GrpcUnaryClient(address, options);

    public string Stack => "grpc";

    public Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default) =>
        _client.CallAsync<ComputeRequest, ComputeReply>(
            HarnessContract.GrpcService,
            HarnessContract.Compute,
            new ComputeRequest { Iterations = iterations },
            cancellationToken: cancellationToken);

    public Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default) =>
        _client.CallAsync<CallThirdPartyRequest, CallThirdPartyReply>(
            HarnessContract.GrpcService,
            HarnessContract.CallThirdParty,
            new CallThirdPartyRequest { Fanout = fanout, DelayMs = delayMs, Style = style, Parallelism = parallelism },
            cancellationToken: cancellationToken);

    public void Dispose() => _client.Dispose();
}
