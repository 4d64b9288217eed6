/**
 * Accuracy cannot silently regress: the evaluation script's figures must stay
 * at or above these floors (docs/insights.md explains the method and the
 * targets). Raise a floor when the lexicon improves; never lower one to make a
 * change pass without saying why in docs/insights.md.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runEvaluation } from '../../scripts/evaluate-insights.ts';

const FLOORS = {
  aspectF1: 0.84,
  aspectPolarity: 0.78,
  sentencePolarity: 0.77,
  yelp: 0.71,
};

describe('accuracy of the insights pipeline', () => {
  const report = runEvaluation();
  const { labelled, yelp } = report.ours;

  it('has a labelled set of at least 300 sentences', () => {
    assert.ok(labelled.sentences >= 300, String(labelled.sentences));
  });
  it(`detects aspects with F1 ≥ ${FLOORS.aspectF1}`, () => {
    assert.ok(labelled.aspect.f1 >= FLOORS.aspectF1, JSON.stringify(labelled.aspect));
  });
  it(`gets aspect polarity right ≥ ${FLOORS.aspectPolarity}`, () => {
    assert.ok(labelled.aspectPolarity.accuracy >= FLOORS.aspectPolarity, JSON.stringify(labelled.aspectPolarity));
  });
  it(`gets sentence polarity right ≥ ${FLOORS.sentencePolarity}`, () => {
    assert.ok(labelled.sentencePolarity.accuracy >= FLOORS.sentencePolarity, JSON.stringify(labelled.sentencePolarity));
  });
  it(`gets Yelp sentence polarity right ≥ ${FLOORS.yelp}`, () => {
    assert.ok(yelp.accuracy >= FLOORS.yelp, JSON.stringify(yelp));
  });
  it('beats both libraries used alone on our sentences and on Yelp', () => {
    for (const other of [report.wink, report.afinn]) {
      assert.ok(labelled.aspectPolarity.accuracy > other.labelled.aspectPolarity.accuracy);
      assert.ok(yelp.accuracy > other.yelp.accuracy);
    }
  });
});
