using Harness.Rpc.Soap;
using Soap = Harness.Contracts.Soap;

namespace Harness.Contracts;

/// <summary>
/// Typed client for the SOAP service. Faults surface as <see cref="SoapFaultException"/>, HTTP errors as
/// <see cref="SoapProtocolException"/>. The synchronous methods call as a generated WCF proxy would.
/// </summary>
public sealed class HarnessSoapClient : IHarnessClient
{
    public static readonly SoapContract Contract = new(HarnessContract.SoapContractName, HarnessContract.SoapNamespace);

    private readonly SoapClient _client;

    /// <param name="baseAddress">The service's base address; the endpoint path is appended.</param>
    public HarnessSoapClient(Uri baseAddress, HttpMessageHandler? handler = null) =>
        _client = new SoapClient(new Uri(baseAddress, HarnessContract.SoapPath), Contract, handler);

    public string Stack => "soap";

    public Grpc.ComputeReply Compute(int iterations) =>
        ToReply(_client.Invoke<Soap.ComputeRequest, Soap.ComputeResponse>(
            HarnessContract.Compute, new Soap.ComputeRequest { Iterations = iterations }));

    public async Task<Grpc.ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default) =>
        ToReply(await _client.InvokeAsync<Soap.ComputeRequest, Soap.ComputeResponse>(
            HarnessContract.Compute, new Soap.ComputeRequest { Iterations = iterations }, cancellationToken));

    public async Task<Grpc.CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default) =>
        ToReply(await _client.InvokeAsync<Soap.CallThirdPartyRequest, Soap.CallThirdPartyResponse>(
            HarnessContract.CallThirdParty,
            new Soap.CallThirdPartyRequest { Fanout = fanout, DelayMs = delayMs, Style = style, Parallelism = parallelism },
            cancellationToken));

    public void Dispose() => _client.Dispose();

    private static Grpc.ComputeReply ToReply(Soap.ComputeResponse r) =>
        new() { Result = r.Result, ThreadId = r.ThreadId, ElapsedMs = r.ElapsedMs };

    private static Grpc.CallThirdPartyReply ToReply(Soap.CallThirdPartyResponse r) =>
        new() { Calls = r.Calls, ElapsedMs = r.ElapsedMs, ThreadId = r.ThreadId, DistinctThreads = r.DistinctThreads };
}
