namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// <c>--grpc-client</c>: which client sends the harness's own gRPC operations. <c>lean</c> (the default) writes HTTP/2
/// frames directly (<see cref="Http2.Http2GrpcClient"/>, the least runner CPU per call, docs/runner-cost.md);
/// <c>grpcnet</c> is Grpc.Net.Client over SocketsHttpHandler (<see cref="GrpcNetHarnessClient"/>), as a .NET client
/// of the service would call. A <c>--call</c> always goes through Grpc.Net.Client.
/// </summary>
public static class GrpcClients
{
    public const string Lean = "lean";
    public const string GrpcNet = "grpcnet";

    public static IReadOnlyList<string> All { get; } = [Lean, GrpcNet];
}
