using System.Runtime.Serialization;
using System.Xml;
using System.Xml.Linq;
using System.Xml.Schema;

namespace Harness.Rpc.Soap;

/// <summary>
/// The XML schemas of a contract, as CoreWCF's WSDL exporter produces them: the data contracts of every request and
/// response type, exported by <see cref="XsdDataContractExporter"/> (one schema per XML namespace, with the
/// serialization namespace's built-in types), and, in the contract namespace, the wrapper elements the messages use:
/// <c>{operation}</c> of the request's type and <c>{operation}Response</c> of the response's.
/// </summary>
internal static class SoapSchemaExporter
{
    /// <summary>
    /// Exports the schemas, the contract namespace's first and the others by namespace, so their indexes (the N of
    /// <c>?xsd=xsdN</c>) are stable. The set is compiled, so a contract whose schemas conflict fails here.
    /// </summary>
    /// <exception cref="InvalidOperationException">A wrapper element clashes with a data contract's element.</exception>
    public static IReadOnlyList<XElement> Export(string contractName, string contractNamespace, IReadOnlyList<SoapOperation> operations)
    {
        var exporter = new XsdDataContractExporter();
        foreach (SoapOperation operation in operations)
        {
            exporter.Export(operation.RequestType);
            exporter.Export(operation.ResponseType);
        }

        XmlSchemaSet set = exporter.Schemas;
        XmlSchema contractSchema = set.Schemas(contractNamespace).Cast<XmlSchema>().FirstOrDefault() ?? AddSchema(set, contractNamespace);
        foreach (SoapOperation operation in operations)
        {
            AddWrapper(contractName, contractSchema, operation.RequestWrapper.Name, operation.RequestType, exporter);
            AddWrapper(contractName, contractSchema, operation.RequestWrapper.Name + "Response", operation.ResponseType, exporter);
        }

        try
        {
            set.Reprocess(contractSchema);
            set.Compile();
        }
        catch (XmlSchemaException e)
        {
            throw new InvalidOperationException($"Contract '{contractName}' has no valid XML schema: {e.Message}", e);
        }

        return [.. set.Schemas().Cast<XmlSchema>()
            .Where(schema => schema.TargetNamespace != XmlSchema.Namespace)
            .OrderBy(schema => schema.TargetNamespace == contractNamespace ? 0 : 1)
            .ThenBy(schema => schema.TargetNamespace, StringComparer.Ordinal)
            .Select(ToElement)];
    }

    private static XmlSchema AddSchema(XmlSchemaSet set, string targetNamespace)
    {
        var schema = new XmlSchema { TargetNamespace = targetNamespace, ElementFormDefault = XmlSchemaForm.Qualified };
        schema.Namespaces.Add("tns", targetNamespace);
        schema.Namespaces.Add("xs", XmlSchema.Namespace);
        set.Add(schema);
        return schema;
    }

    private static void AddWrapper(string contractName, XmlSchema schema, string name, Type type, XsdDataContractExporter exporter)
    {
        XmlQualifiedName typeName = exporter.GetSchemaTypeName(type);
        XmlSchemaElement? existing = schema.Items.OfType<XmlSchemaElement>().FirstOrDefault(element => element.Name == name);
        if (existing is not null)
        {
            // A data contract whose element has the wrapper's name and type is the same declaration; any other is a clash.
            if (existing.SchemaTypeName == typeName)
            {
                return;
            }

            throw new InvalidOperationException(
                $"Contract '{contractName}': the message element '{name}' of type '{typeName}' clashes with the element of the same " +
                $"name and type '{existing.SchemaTypeName}' in '{schema.TargetNamespace}'. Rename the operation or the data contract.");
        }

        string typeNamespace = typeName.Namespace;
        if (typeNamespace != schema.TargetNamespace && typeNamespace != XmlSchema.Namespace
            && !schema.Includes.OfType<XmlSchemaImport>().Any(import => import.Namespace == typeNamespace))
        {
            schema.Includes.Add(new XmlSchemaImport { Namespace = typeNamespace });
        }

        schema.Items.Add(new XmlSchemaElement
        {
            Name = name,
            SchemaTypeName = typeName,
            // DataContractSerializer writes a null reference as a nil element.
            IsNillable = !type.IsValueType || Nullable.GetUnderlyingType(type) is not null,
        });
    }

    private static XElement ToElement(XmlSchema schema)
    {
        var document = new XDocument();
        using (XmlWriter writer = document.CreateWriter())
        {
            schema.Write(writer);
        }

        return document.Root!;
    }
}
