using System.Runtime.Serialization;

namespace Harness.Rpc.Soap.Tests;

[DataContract(Namespace = InventoryService.DataNamespace)]
public sealed class ReserveRequest
{
    [DataMember(Name = "sku", Order = 0)]
    public string Sku { get; set; } = "";

    [DataMember(Name = "count", Order = 1)]
    public int Count { get; set; }
}

[DataContract(Namespace = InventoryService.DataNamespace)]
public sealed class ReserveResponse
{
    [DataMember(Name = "sku", Order = 0)]
    public string Sku { get; set; } = "";

    [DataMember(Name = "reserved", Order = 1)]
    public int Reserved { get; set; }

    [DataMember(Name = "id", Order = 2)]
    public Guid Id { get; set; }
}

/// <summary>
/// A second contract, in its own namespace, whose data contracts live in yet another: the WSDL's schemas must import
/// one another across namespaces, as CoreWCF's do for such a service.
/// </summary>
internal static class InventoryService
{
    public const string Namespace = "urn:harness:inventory";
    public const string DataNamespace = "urn:harness:inventory:data";

    public static SoapContract CreateContract() => new SoapContract("IInventory", Namespace)
        .AddOperation<ReserveRequest, ReserveResponse>("Reserve", request => new ReserveResponse
        {
            Sku = request.Sku,
            Reserved = Math.Min(request.Count, 10),
            Id = Guid.NewGuid(),
        })
        .AddOperation<string, string>("Describe", sku => $"{sku}: in stock");
}
