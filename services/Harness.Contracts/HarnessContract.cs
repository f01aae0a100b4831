namespace Harness.Contracts;

/// <summary>Names shared by both stacks, so services and clients cannot drift apart.</summary>
public static class HarnessContract
{
    /// <summary>gRPC service name, as in harness.proto.</summary>
    public const string GrpcService = "harness.v1.HarnessService";

    /// <summary>SOAP contract name and namespace, as a WCF <c>[ServiceContract]</c> would default them.</summary>
    public const string SoapContractName = "IHarnessService";

    public const string SoapNamespace = "http://tempuri.org/";

    /// <summary>Path of the SOAP endpoint, in the manner of a .svc address.</summary>
    public const string SoapPath = "/HarnessService.svc";

    public const string Compute = "Compute";

    public const string CallThirdParty = "CallThirdParty";
}
