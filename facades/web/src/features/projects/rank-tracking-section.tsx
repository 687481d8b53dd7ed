import { Checkbox, Label, Radio, RadioGroup } from 'react-aria-components';
import { TextField } from '../../components/text-field';
import type { ProjectSettingsFieldsFragment } from '../../gql/graphql';
import { LABELS } from './crawl-scope-section';

/** The settings form's rank tracking fields: country, language, device and whether subdomains count. */
export function RankTrackingSection({
  settings,
  domain,
  deviceInvalid,
}: {
  settings: ProjectSettingsFieldsFragment['settings'];
  domain: string;
  deviceInvalid: boolean;
}) {
  return (
    <section className="card" aria-labelledby="rank-title">
      <h2 id="rank-title">Rank tracking</h2>
      <p className="muted small">Where and how positions are checked for keywords added from now on.</p>
      <div className="form settings-grid">
        <TextField
          name="settings.rankCountry"
          label={LABELS['settings.rankCountry']}
          defaultValue={settings.rankCountry ?? ''}
          placeholder="us"
          maxLength={2}
          description="Two-letter country code, e.g. de (default us)."
        />
        <TextField
          name="settings.rankLanguage"
          label={LABELS['settings.rankLanguage']}
          defaultValue={settings.rankLanguage ?? ''}
          placeholder="en"
          maxLength={10}
          description="Language code, e.g. de or pt-br (default en)."
        />
      </div>
      <RadioGroup
        name="settings.rankDevice"
        className="radio-group"
        defaultValue={settings.rankDevice ?? 'default'}
        orientation="horizontal"
        isInvalid={deviceInvalid}
      >
        <Label className="field-label">{LABELS['settings.rankDevice']}</Label>
        <div className="radio-row">
          <Radio value="default" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Default (desktop)
          </Radio>
          <Radio value="desktop" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Desktop
          </Radio>
          <Radio value="mobile" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Mobile
          </Radio>
        </div>
      </RadioGroup>
      <Checkbox
        name="settings.rankIncludeSubdomains"
        className="checkbox"
        defaultSelected={settings.rankIncludeSubdomains ?? false}
      >
        <span className="checkbox-box" aria-hidden="true" />
        {LABELS['settings.rankIncludeSubdomains']} (a result on blog.{domain} counts)
      </Checkbox>
    </section>
  );
}
