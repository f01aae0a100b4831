namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// <c>--soap-client</c>: which client sends the harness's own SOAP operations. <c>lean</c> (the default) costs the
/// runner the least per call (<see cref="LeanSoapClient"/>, docs/runner-cost.md); <c>wcf</c> is the WCF client's full
/// message stack, as a generated proxy would call, for a run whose point is that client's own behaviour.
/// </summary>
public static class SoapClients
{
    public const string Lean = "lean";
    public const string Wcf = "wcf";

    public static IReadOnlyList<string> All { get; } = [Lean, Wcf];
}
