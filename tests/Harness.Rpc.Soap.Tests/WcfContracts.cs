using System.ServiceModel;

namespace Harness.Rpc.Soap.Tests;

// The test contract as a WCF client sees it: wrapped message contracts, so the body is
// <Compute xmlns="http://tempuri.org/"><iterations>5</iterations></Compute>, as the stand-in expects. The other
// contracts get one thing wrong each, as a client built from an outdated or foreign contract would.

[ServiceContract(Name = TestService.Name, Namespace = TestService.Namespace)]
public interface IWcfCalculator
{
    [OperationContract(Name = "Compute")]
    Task<WcfComputeResponse> ComputeAsync(WcfComputeRequest request);
}

/// <summary>The right action, but the wrapper in another namespace.</summary>
[ServiceContract(Name = TestService.Name, Namespace = TestService.Namespace)]
public interface IWrongNamespaceCalculator
{
    [OperationContract(Name = "Compute")]
    Task<WcfComputeResponse> ComputeAsync(WrongNamespaceComputeRequest request);
}

/// <summary>The Compute body sent with Echo's action.</summary>
[ServiceContract(Name = TestService.Name, Namespace = TestService.Namespace)]
public interface IMismatchedActionCalculator
{
    [OperationContract(Name = "Compute", Action = TestService.Namespace + TestService.Name + "/Echo")]
    Task<WcfComputeResponse> ComputeAsync(WcfComputeRequest request);
}

/// <summary>The right wrapper with a member of the wrong type.</summary>
[ServiceContract(Name = TestService.Name, Namespace = TestService.Namespace)]
public interface ITextIterationsCalculator
{
    [OperationContract(Name = "Compute")]
    Task<WcfComputeResponse> ComputeAsync(TextComputeRequest request);
}

[MessageContract(IsWrapped = true, WrapperName = "Compute", WrapperNamespace = TestService.Namespace)]
public sealed class WcfComputeRequest
{
    [MessageBodyMember(Name = "iterations", Namespace = TestService.Namespace)]
    public int Iterations { get; set; }
}

[MessageContract(IsWrapped = true, WrapperName = "ComputeResponse", WrapperNamespace = TestService.Namespace)]
public sealed class WcfComputeResponse
{
    [MessageBodyMember(Name = "sum", Namespace = TestService.Namespace)]
    public long Sum { get; set; }
}

[MessageContract(IsWrapped = true, WrapperName = "Compute", WrapperNamespace = "urn:wrong")]
public sealed class WrongNamespaceComputeRequest
{
    [MessageBodyMember(Name = "iterations", Namespace = "urn:wrong")]
    public int Iterations { get; set; }
}

[MessageContract(IsWrapped = true, WrapperName = "Compute", WrapperNamespace = TestService.Namespace)]
public sealed class TextComputeRequest
{
    [MessageBodyMember(Name = "iterations", Namespace = TestService.Namespace)]
    public string Iterations { get; set; } = "";
}
