using System.ServiceModel;

namespace Harness.Contracts;

/// <summary>
/// The SOAP service's contract as the WCF client sees it: the name and namespace WCF would default for an
/// <c>IHarnessService</c> interface, and wrapped message contracts so the body is
/// <c>&lt;Compute xmlns="http://tempuri.org/"&gt;&lt;iterations&gt;5&lt;/iterations&gt;&lt;/Compute&gt;</c>, with no extra
/// <c>&lt;request&gt;</c> element.
/// </summary>
[ServiceContract(Name = HarnessContract.SoapContractName, Namespace = HarnessContract.SoapNamespace)]
public interface IHarnessSoapService
{
    [OperationContract(Name = HarnessContract.Compute)]
    Task<Soap.ComputeResponse> ComputeAsync(Soap.ComputeRequest request);

    [OperationContract(Name = HarnessContract.CallThirdParty)]
    Task<Soap.CallThirdPartyResponse> CallThirdPartyAsync(Soap.CallThirdPartyRequest request);
}
